/**
 * Master mappings shipped with Fund Audit (`fixtures/tpas/<code>/mappings/`), loaded over what a
 * TPA has (developer tools "populate / force master mappings", delivery spec section 7). A mapping
 * whose content changes reruns standardization for the TPA's live funds, as an upload does.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * reruns go through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { mappingTypeFromFileName, parseMappingCsv } from '../../../pipeline/mappings/parse.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import type { User } from '../auth/tokens.js';
import { fundsAffectedBy, rerunFunds } from './mappings.js';
import { upsertMasterMapping } from './store.js';

/**
 * Replaces the master mappings of every TPA that has shipped ones with the shipped files.
 * @returns per TPA, the mapping types loaded and those whose content changed
 * @throws ValidationError when a shipped mapping file is not valid (nothing of that TPA changes after it)
 */
export async function forceFixtureMasterMappings(ctx: AppContext, user: User): Promise<Array<{ administrator: string; loaded: string[]; changed: string[] }>> {
  const dir = join(fixturesDir(), 'tpas');
  const out: Array<{ administrator: string; loaded: string[]; changed: string[] }> = [];
  const { db, tables: t } = storeOf(ctx);
  for (const admin of await db.select().from(t.administrators).orderBy(asc(t.administrators.id))) {
    const mdir = join(dir, admin.code, 'mappings');
    if (!existsSync(mdir)) continue;
    const entry = { administrator: admin.code, loaded: [] as string[], changed: [] as string[] };
    for (const file of readdirSync(mdir).sort()) {
      const type = mappingTypeFromFileName(file);
      if (!type) continue;
      const parsed = parseMappingCsv(type, file, readFileSync(join(mdir, file)));
      if (!parsed.valid) throw new ValidationError(`Shipped mapping ${admin.code}/${file} is not valid`, parsed.errors);
      const { mapping, changed } = await upsertMasterMapping(ctx, {
        administratorId: admin.id,
        adminCode: admin.code,
        type,
        rows: parsed.rows,
        userId: user.id,
        reason: 'shipped mapping reloaded',
        fileName: file,
      });
      entry.loaded.push(type);
      if (changed) {
        entry.changed.push(type);
        await rerunFunds(ctx, user, await fundsAffectedBy(ctx, mapping), `master mapping ${mapping.description} reloaded from the shipped files`);
      }
    }
    out.push(entry);
  }
  return out;
}

/**
 * A throw-away data directory for one test case: a fresh context (own SQLite database, blob store
 * and event bus; silent logger, no log file) bootstrapped without demo data, with the independent
 * FX rates, the case's TPA and its master mappings. Nothing a case does reaches the production data
 * directory: the production database is only read (its master mappings) when asked to.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { mappingTypeFromFileName, parseMappingCsv } from '../../../pipeline/mappings/parse.js';
import type { MappingType } from '../../../pipeline/sdm/model.js';
import { BlobStore } from '../../blobs.js';
import { configSchema, type AppConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { openDb } from '../../db/client.js';
import { storeOf } from '../../db/dialect.js';
import { administrators } from '../../db/schema/index.js';
import { ValidationError } from '../../errors.js';
import { EventBus } from '../../events.js';
import { fixturesDir } from '../../paths.js';
import { seedFxRates } from '../../services/reference-data/fx-rates.js';
import type { User } from '../../services/auth/tokens.js';
import { prepareDataDir } from '../../services/setup/prepare.js';
import { masterMappings, upsertMasterMapping } from '../../services/mappings/store.js';

/**
 * Where a case's master mappings come from: the shipped `fixtures/tpas/<code>/mappings`, the
 * production database's master mappings of the TPA, or a folder holding `<code>/*.csv` (or
 * `<code>/mappings/*.csv`); a TPA with none in the production database or the folder falls back to
 * the fixtures (the step payload says so).
 */
export type MappingSource = { kind: 'fixtures' } | { kind: 'production'; ctx: AppContext } | { kind: 'dir'; dir: string };

/** Mapping rows by type and where they were read. */
export interface ResolvedMappings {
  origin: string;
  name: string;
  rows: Partial<Record<MappingType, Array<Record<string, string>>>>;
}

export interface Workspace {
  ctx: AppContext;
  dir: string;
  user: User;
  administrator: { id: number; code: string; name: string };
  /** Closes the database and deletes the directory. */
  dispose(): void;
}

/** Reads every `<mapping type>.csv` of a folder. @throws ValidationError naming the file and its errors */
function mappingsFromDir(dir: string): ResolvedMappings['rows'] {
  const rows: ResolvedMappings['rows'] = {};
  for (const file of readdirSync(dir).sort()) {
    const type = mappingTypeFromFileName(file);
    if (!type) continue;
    const parsed = parseMappingCsv(type, file, readFileSync(join(dir, file)));
    if (!parsed.valid) throw new ValidationError(`${join(dir, file)} is not a valid ${type} mapping`, parsed.errors);
    rows[type] = parsed.rows;
  }
  return rows;
}

/** TPA name from `fixtures/tpas/<code>/tpa.json` (the code when there is none). */
function fixtureTpaName(code: string): string {
  const file = join(fixturesDir(), 'tpas', code, 'tpa.json');
  return existsSync(file) ? String(JSON.parse(readFileSync(file, 'utf8')).name ?? code) : code;
}

/**
 * Resolves the master mappings of a TPA from a source.
 * @throws ValidationError when no mappings are found or a mapping file is invalid
 */
export async function resolveMappings(code: string, source: MappingSource): Promise<ResolvedMappings> {
  if (source.kind === 'production') {
    // the production database, SQLite or PostgreSQL
    const { db, tables: t } = storeOf(source.ctx);
    const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.code, code)).limit(1);
    const masters = admin ? await masterMappings(source.ctx, admin.id) : {};
    if (admin && Object.keys(masters).length) {
      return { origin: 'production', name: admin.name, rows: Object.fromEntries(Object.entries(masters).map(([t, m]) => [t, m!.rows])) };
    }
    return { ...(await resolveMappings(code, { kind: 'fixtures' })), origin: 'fixtures (the TPA has no master mappings in production)' };
  }
  if (source.kind === 'dir' && !existsSync(join(source.dir, code)))
    return { ...(await resolveMappings(code, { kind: 'fixtures' })), origin: `fixtures (${source.dir} has no ${code} folder)` };
  const base = source.kind === 'dir' ? join(source.dir, code) : join(fixturesDir(), 'tpas', code);
  const dir = existsSync(join(base, 'mappings')) ? join(base, 'mappings') : base;
  if (!existsSync(dir)) throw new ValidationError(`No master mappings for ${code}: ${dir} does not exist`);
  const rows = mappingsFromDir(dir);
  if (!Object.keys(rows).length) throw new ValidationError(`No master mappings for ${code}: ${dir} holds no <mapping type>.csv file`);
  return { origin: source.kind === 'dir' ? dir : 'fixtures', name: fixtureTpaName(code), rows };
}

/**
 * Opens a workspace for a TPA with the given master mappings.
 * @param opts.tmpRoot parent folder of the workspace (default the OS temp folder)
 */
export async function openWorkspace(opts: { administratorCode: string; mappings: ResolvedMappings; tmpRoot?: string }): Promise<Workspace> {
  const dir = mkdtempSync(join(opts.tmpRoot ?? tmpdir(), 'fund-audit-testrun-'));
  let ctx: AppContext | undefined;
  try {
    const config = { ...configSchema.parse({ logLevel: 'silent', seedDemoData: false, workers: 0 }), dataDir: dir } as AppConfig;
    const { db, sqlite, schemaVersion } = await openDb(dir, config.dbName);
    ctx = {
      config,
      db,
      sqlite,
      schemaVersion,
      log: pino({ level: 'silent' }),
      events: new EventBus(),
      blobs: new BlobStore(join(dir, 'blobs')),
      close: () => sqlite.close(),
    };
    const { admin: user } = await prepareDataDir(ctx);
    seedFxRates(ctx);
    const administrator = ctx.db.insert(administrators).values({ code: opts.administratorCode, name: opts.mappings.name }).returning().get();
    for (const [type, rows] of Object.entries(opts.mappings.rows)) {
      await upsertMasterMapping(ctx, {
        administratorId: administrator.id,
        adminCode: administrator.code,
        type: type as MappingType,
        rows: rows!,
        userId: null,
      });
    }
    const opened = ctx;
    return {
      ctx: opened,
      dir,
      user,
      administrator: { id: administrator.id, code: administrator.code, name: administrator.name },
      dispose: () => {
        try {
          opened.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    ctx?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

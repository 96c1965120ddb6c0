/**
 * Mapping downloads: one mapping as csv, and the custom-mapping report (the download CSV form of exports/csv.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import { FILE_LAYOUT_COLUMNS } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { NotFoundError } from '../../errors.js';
import { csvText } from '../exports/csv.js';
import { listMappings } from './mappings.js';
import { mappingVersion } from './versions.js';

/**
 * A mapping's rows as csv with its original columns: its current content, or one of its versions
 * (`<name>_v<version>.csv`).
 * @throws NotFoundError for an unknown mapping or version
 */
export async function mappingCsv(ctx: AppContext, id: number, version?: number): Promise<{ fileName: string; text: string }> {
  const { db, tables: t } = storeOf(ctx);
  const [m] = await db.select().from(t.mappings).where(eq(t.mappings.id, id));
  if (!m) throw new NotFoundError(`No mapping with id: ${id}`);
  const content = version === undefined ? m.rows : (await mappingVersion(ctx, id, version)).rows;
  const columns = m.type === 'file_layout' ? [...FILE_LAYOUT_COLUMNS] : ['source_code', 'target_code', 'description'];
  const rows = content.map((r) => columns.map((c) => r[c]));
  return { fileName: version === undefined ? `${m.description}.csv` : `${m.description}_v${version}.csv`, text: csvText(columns, rows) };
}

/** Every custom mapping with its administrator, owner, client, reason and the funds using it. */
export async function customMappingReport(ctx: AppContext): Promise<string> {
  const rows = (await listMappings(ctx, { kind: 'custom' })).map((m) => [
    m.administrator.code,
    m.type,
    m.description,
    m.owner,
    m.clientName,
    m.rationale,
    m.updated_at,
    m.fundRequests.map((f) => f.code ?? f.id).join(' '),
  ]);
  return csvText(['administrator', 'type', 'name', 'owner', 'client', 'reason', 'updated_at', 'fund_requests'], rows);
}

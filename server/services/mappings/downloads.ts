/** Mapping downloads: one mapping as csv, and the custom-mapping report (the download CSV form of exports/csv.ts). */
import { eq } from 'drizzle-orm';
import { FILE_LAYOUT_COLUMNS } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { mappings } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors.js';
import { csvText } from '../exports/csv.js';
import { listMappings } from './mappings.js';
import { mappingVersion } from './versions.js';

/**
 * A mapping's rows as csv with its original columns: its current content, or one of its versions
 * (`<name>_v<version>.csv`).
 * @throws NotFoundError for an unknown mapping or version
 */
export function mappingCsv(ctx: AppContext, id: number, version?: number): { fileName: string; text: string } {
  const m = ctx.db.select().from(mappings).where(eq(mappings.id, id)).get();
  if (!m) throw new NotFoundError(`No mapping with id: ${id}`);
  const content = version === undefined ? m.rows : mappingVersion(ctx, id, version).rows;
  const columns = m.type === 'file_layout' ? [...FILE_LAYOUT_COLUMNS] : ['source_code', 'target_code', 'description'];
  const rows = content.map((r) => columns.map((c) => r[c]));
  return { fileName: version === undefined ? `${m.description}.csv` : `${m.description}_v${version}.csv`, text: csvText(columns, rows) };
}

/** Every custom mapping with its administrator, owner, client, reason and the funds using it. */
export function customMappingReport(ctx: AppContext): string {
  const rows = listMappings(ctx, { kind: 'custom' }).map((m) => [
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

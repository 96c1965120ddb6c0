/** Mapping downloads: one mapping as csv, and the custom-mapping report (UTF-8 with BOM, cells neutralised). */
import { stringify } from 'csv-stringify/sync';
import { eq } from 'drizzle-orm';
import { FILE_LAYOUT_COLUMNS } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { mappings } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors.js';
import { listMappings } from './mappings.js';

/** Text that a spreadsheet would read as a formula gets a leading quote. */
const safe = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /^[=+\-@]/.test(s) ? `'${s}` : s;
};

/** A mapping's rows as csv with its original columns. @throws NotFoundError */
export function mappingCsv(ctx: AppContext, id: number): { fileName: string; text: string } {
  const m = ctx.db.select().from(mappings).where(eq(mappings.id, id)).get();
  if (!m) throw new NotFoundError(`No mapping with id: ${id}`);
  const columns = m.type === 'file_layout' ? [...FILE_LAYOUT_COLUMNS] : ['source_code', 'target_code', 'description'];
  const rows = m.rows.map((r) => columns.map((c) => safe(r[c])));
  return { fileName: `${m.description}.csv`, text: '\ufeff' + stringify([columns, ...rows]) };
}

/** Every custom mapping with its administrator, owner, client, reason and the funds using it. */
export function customMappingReport(ctx: AppContext): string {
  const rows = listMappings(ctx, { kind: 'custom' }).map((m) =>
    [m.administrator.code, m.type, m.description, m.owner, m.clientName, m.rationale, m.updated_at, m.fundRequests.map((f) => f.code ?? f.id).join(' ')].map(
      safe,
    ),
  );
  return '\ufeff' + stringify([['administrator', 'type', 'name', 'owner', 'client', 'reason', 'updated_at', 'fund_requests'], ...rows]);
}

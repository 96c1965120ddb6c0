/** Test support for reading the work paper workbooks the pipeline writes (exceljs). */
import type ExcelJS from 'exceljs';

/**
 * The first row of a sheet whose cell in column `col` (1-based, the first by default) is
 * `label`; throws naming the sheet and the label when no row has it.
 */
export function rowOf(ws: ExcelJS.Worksheet, label: string, col = 1): ExcelJS.Row {
  let hit: ExcelJS.Row | undefined;
  ws.eachRow((r) => {
    if (!hit && r.getCell(col).value === label) hit = r;
  });
  if (!hit) throw new Error(`${ws.name}: no row "${label}"`);
  return hit;
}

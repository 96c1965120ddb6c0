/**
 * Large deliveries for the benchmarks: the Meridian Fund Services holdings of the Goldman Sachs
 * Bond Fund (`S000013795`, 1,685 rows, real public data) repeated `scale` times in one CSV.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../server/paths.js';

/** The fund code of the holdings file. */
export const HOLDINGS_FUND_CODE = 'S000013795';

const holdings = readFileSync(join(fixturesDir(), `tpas/meridian_fund_services/inputs/MFS_HOLDINGS_${HOLDINGS_FUND_CODE}_20230331.csv`), 'utf8').split('\r\n');
const rows = holdings.slice(4).filter(Boolean);

/** Holdings rows in one delivery of `scale` copies. */
export const holdingsRows = (scale: number): number => rows.length * scale;

/**
 * A distinct delivery (its own title line, numbered `n`) of the holdings `scale` times over, for the
 * fund `code` (the file's own fund by default: every occurrence of its code is replaced).
 * @returns the CSV (CRLF lines) and a file name of the administrator's naming pattern
 */
export function holdingsDelivery(scale: number, n: number, code = HOLDINGS_FUND_CODE): { blob: Blob; name: string } {
  const text = [holdings[0], `${holdings[1]} (delivery ${n})`, ...holdings.slice(2, 4), ...Array.from({ length: scale }, () => rows).flat(), ''].join('\r\n');
  return {
    blob: new Blob([code === HOLDINGS_FUND_CODE ? text : text.replaceAll(HOLDINGS_FUND_CODE, code)]),
    name: `MFS_HOLDINGS_${code}_20230331_x${scale}_${n}.csv`,
  };
}

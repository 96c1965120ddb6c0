/**
 * The Meridian Fund Services delivery several browser suites import: the Goldman Sachs Bond Fund's
 * N-PORT filing of 2023-03-31 as the TPA's trial balance, holdings, prices and share capital files
 * (fixtures/tpas/meridian_fund_services/inputs), and the demo funds the suites open by name.
 */
import { join } from 'node:path';
import { repoRoot } from '../harness';

/** The TPA's fixture folder (mappings/, inputs/). */
export const MFS = join(repoRoot, 'fixtures/tpas/meridian_fund_services');
/** The delivery's file names under `${MFS}/inputs`. */
export const INPUTS = [
  'MFS_TB_S000013795_20230331.csv',
  'MFS_HOLDINGS_S000013795_20230331.csv',
  'MFS_PRICES_S000013795_20230331.csv',
  'MFS_CAPITAL_S000013795_20230331.csv',
];
/** The Meridian fund the delivery is for. */
export const GS = 'Goldman Sachs Bond Fund';
/** A Keystone Administration demo fund. */
export const AST = 'AST Bond Portfolio 2022';

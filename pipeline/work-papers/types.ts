/** What a work paper is built from (workbook.ts and each of its sheets): the fund, its data, its checks and their context. */
import type { FundAdjustment } from '../adjustments/apply.js';
import type { UnappliedLine } from '../adjustments/unapplied.js';
import type { AggregationSummary } from '../aggregation/combine.js';
import type { CheckContext, CheckRun, InvestmentTotals, MaterialityAmounts } from '../checks/index.js';
import type { FundSdmData } from '../sdm/rows.js';
import type { MappingUsed, StandardizedFile } from './data-quality.js';

export interface WorkPaperInput {
  fund: {
    id: number | string;
    name: string;
    fundCode: string;
    administrator: string;
    client: string | null;
    periodEnd: string;
    currency: string;
    pm: number;
    te: number;
    sad: number;
  };
  /** PM / TE / SAD amounts in fund currency. */
  materiality: MaterialityAmounts;
  nav: number;
  data: FundSdmData;
  checks: Pick<CheckRun, 'items' | 'summary' | 'status'>;
  /** The investments reconciliation's totals from the checks' run; computed from `data` (one pass over the holdings) when absent. */
  investmentTotals?: InvestmentTotals;
  generatedAt: Date;
  /** The standardization outcome of each current input file; an Invalid one makes the outcome 'Incomplete data'. */
  standardization?: StandardizedFile[];
  /** The mapping versions the standardization applied, named in the Summary and per position in Holdings. */
  mappings?: MappingUsed[];
  /** The checks' context (independent rates, stale limit): the Holdings sheet shows each position's evidence with it. */
  checkContext?: CheckContext;
  /** The fund's audit adjustments: those not booked by the TPA are listed as unadjusted differences. */
  adjustments?: FundAdjustment[];
  /** Adjustment lines that do not fit the fund's data (`unappliedLines`): they make the outcome 'Incomplete data'. */
  unappliedAdjustments?: UnappliedLine[];
  /** A parent fund's aggregation (figures per child and in total): written as the Aggregation sheet after the Summary. */
  aggregation?: AggregationSummary;
}

/**
 * Typed SDM rows as the standardization stage produces them and the checks consume them.
 * Money in the fund's base currency unless `_local`; dates ISO `YYYY-MM-DD`; `line` is the row's
 * line number in the delivered file (1-based, for error messages); `file` the delivered file name
 * (with `#sheet` for xlsx).
 */

interface Source {
  file: string;
  line: number;
  /**
   * The booked audit adjustments that changed this row's figures (docs/decisions/0012): each
   * adjustment's id, the number of its line (1-based) and that line's amount in fund currency.
   * Absent on a row as delivered.
   */
  adjustedBy?: AdjustmentRef[];
}

/** One line of a booked audit adjustment that changed a row. */
export interface AdjustmentRef {
  adjustment: number;
  line: number;
  amount: number;
}

export interface TrialBalanceRow extends Source {
  fund_code: string;
  as_of: string;
  account_code: string;
  account_name: string | null;
  currency: string | null;
  balance_local: number | null;
  balance_base: number;
  /** Standard account from the account mapping (e.g. INVESTMENTS_AT_VALUE). */
  standard_account: string | null;
}

export interface HoldingRow extends Source {
  fund_code: string;
  as_of: string;
  security_id: string;
  id_type: string | null;
  security_name: string;
  instrument_type: string;
  /** Standard instrument type from the instrument mapping (e.g. DEBT). */
  standard_instrument: string | null;
  quantity: number;
  price: number;
  price_currency: string | null;
  fx_rate: number | null;
  market_value_local: number | null;
  market_value_base: number;
  cost_base: number | null;
  accrued_income_base: number | null;
  country: string | null;
  /**
   * A revalued position (a booked adjustment's holdings line): its figures as delivered, before the
   * revaluation. Holdings integrity checks these (the revaluation is the auditor's own journal).
   */
  delivered?: Pick<HoldingRow, 'price' | 'market_value_local' | 'market_value_base'>;
  /**
   * A position of an aggregate parent consolidated from several children's rows of one security
   * (`pipeline/aggregation/consolidate.ts`): those rows, each converted into the parent's currency,
   * in the order read. `file` and `line` are the first one's.
   */
  parts?: HoldingRow[];
}

export interface TransactionRow extends Source {
  fund_code: string;
  trade_date: string;
  settle_date: string | null;
  transaction_type: string;
  standard_transaction: string | null;
  security_id: string | null;
  quantity: number | null;
  price: number | null;
  amount_local: number | null;
  amount_base: number;
  currency: string | null;
}

export interface ShareCapitalRow extends Source {
  fund_code: string;
  as_of: string;
  share_class: string;
  activity_type: string;
  standard_activity: string | null;
  shares: number;
  amount_base: number | null;
  nav_per_share: number | null;
}

export interface PriceRow extends Source {
  security_id: string;
  price_date: string;
  price: number;
  price_currency: string | null;
  price_source: string;
  price_type: string | null;
}

/**
 * Rows of one SDM type read in chunks (arrays of consecutive rows, in file order) that may be
 * iterated any number of times, and counted. The calculations stage's
 * (`server/jobs/stages/calculations.ts`) reads a chunk at a time from the database on each pass,
 * so consumers must not keep every row they see. Read with `chunksOf`: `for await (const chunk of
 * chunksOf(rows)) for (const row of chunk) ...` (the rows of a chunk synchronously, never an
 * await per row).
 */
export interface RowSource<T> extends AsyncIterable<T[]> {
  readonly length: number;
}

/** Rows of one SDM type: in memory (an array: test data, small deliveries) or a row source. */
export type Rows<T> = T[] | RowSource<T>;

/** The chunks of some rows: an array is one chunk (none when empty), a row source its own. */
export async function* chunksOf<T>(rows: Rows<T>): AsyncGenerator<T[]> {
  if (Array.isArray(rows)) {
    if (rows.length) yield rows;
    return;
  }
  yield* rows;
}

/** Every row in one array (for rows known to be few: a trial balance, a test case's fund). */
export async function allRows<T>(rows: Rows<T>): Promise<T[]> {
  if (Array.isArray(rows)) return rows;
  const out: T[] = [];
  for await (const chunk of rows) for (const r of chunk) out.push(r);
  return out;
}

/**
 * All standardized data of one fund. The types that grow with the fund's size (holdings,
 * transactions, prices) may be row sources, read a chunk at a time; a trial balance (one row per ledger
 * account) and share-capital activity (a few rows per class) are arrays.
 */
export interface FundSdmData {
  trial_balance: TrialBalanceRow[];
  holdings: Rows<HoldingRow>;
  transactions: Rows<TransactionRow>;
  share_capital: ShareCapitalRow[];
  prices: Rows<PriceRow>;
}

/** A fund's data with every type in arrays (test data, small deliveries); a `FundSdmData`. */
export interface FundSdmArrays extends FundSdmData {
  holdings: HoldingRow[];
  transactions: TransactionRow[];
  prices: PriceRow[];
}

/** An independent FX rate: units of `currency` per one unit of the fund's base currency. */
export interface FxRate {
  currency: string;
  rate_date: string;
  units_per_base: number;
  source: string;
}

/** Result of one audit check item (spec: QA_Rec; DOMAIN.md 2.4). */
export interface QaRec {
  /** Check id, e.g. 'tb_balance', 'investments_reconciliation'. */
  check: string;
  /** Item name (spec: name or defined_name), e.g. 'Trial balance sums to zero' or a security id. */
  name: string;
  status: 'pass' | 'warning' | 'fail';
  /** Difference in fund currency (absolute amounts unless stated). */
  diff: number;
  /** Threshold used, in fund currency. */
  threshold: number | null;
  /** Human explanation with the figures compared. */
  message: string;
  /**
   * Set when the check could not be performed: the reason. Such an item is shown NOT PERFORMED
   * and counts as a warning, never as a pass (nothing was verified).
   */
  notPerformed?: string;
  /** Source file and line when the item comes from one row. */
  file?: string;
  line?: number;
  details?: Record<string, unknown>;
}

/** An unmapped code found during standardization (spec: QA_Mapping). */
export interface QaMapping {
  name: string;
  column: string;
  file: string;
  error: string;
  lines: number[];
}

/** A row-level problem: unparseable number or date, missing required value. */
export interface RowError {
  file: string;
  line: number;
  column: string;
  error: string;
}

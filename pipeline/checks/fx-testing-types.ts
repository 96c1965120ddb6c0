/** What FX testing reports (`fx-testing.ts`): per currency, and its total item's details. Rates in units per fund currency. */

/** One rate a TPA used for a currency, compared with the independent rate. */
export interface TpaRateTested {
  rate: number;
  positions: number;
  marketValueBase: number;
  /** (TPA rate - independent) / independent x 100: percent 0-100. */
  rateDiffPct: number;
  /** Outside the tolerance: an exception. */
  exception: boolean;
  /** Value impact in fund currency: sum(base - local / independent rate) of its positions. */
  impact: number;
}

/** One currency of the fund's foreign holdings: tested, or NOT PERFORMED with the reason. */
export interface FxCurrencyResult {
  currency: string;
  positions: number;
  marketValueLocal: number;
  marketValueBaseTpa: number;
  /** Where the TPA's rate comes from: the FX table (file, line, date), the holdings' fx_rate, or implied by local and base values. */
  tpaRateSource: string;
  /** Date of the TPA's rate when the FX table gave it. */
  tpaRateDate: string | null;
  tpaRateMin: number | null;
  tpaRateMax: number | null;
  /** Value-weighted TPA rate, sum |local| / sum |base|. */
  tpaRateEffective: number | null;
  independentRate: number | null;
  rateDate: string | null;
  rateSource: string | null;
  /** Calendar and business days the independent rate is dated before the period end. */
  rateAgeDays: number | null;
  rateAgeBusinessDays: number | null;
  /** Null when tested; else why the currency could not be tested. */
  notPerformed: string | null;
  /** The effective TPA rate's difference from the independent rate: percent 0-100. */
  rateDiffPct: number | null;
  marketValueBaseIndependent: number | null;
  /** Impact of the TPA rates outside the tolerance (fund currency). */
  exceptionImpact: number;
  /** Impact of every position at the independent rate, exceptions or not (fund currency). */
  impact: number;
  tpaRates: TpaRateTested[];
  /** The first lines of the currency's positions in the holdings file. */
  lines: number[];
}

/** `details` of the 'FX testing: total impact' item. */
export interface FxTestingSummary {
  performed: boolean;
  tolerancePct: number;
  maxAgeBusinessDays: number;
  holdings: number;
  foreignPositions: number;
  currencies: FxCurrencyResult[];
  tested: number;
  withinTolerance: number;
  exceptions: number;
  notPerformedCurrencies: string[];
  /** Net and gross impact of the exceptions (fund currency). */
  net: number;
  gross: number;
  pm: number;
  te: number;
  sad: number;
}

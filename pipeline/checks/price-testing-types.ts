/** What price testing reports (`price-testing.ts`): per currency, the largest impacts, and its summary item's details. */

/** One currency's FX re-translation in the price-testing summary (rates in units per base). */
export interface CurrencyImpact {
  currency: string;
  positions: number;
  tpaRateMin: number | null;
  tpaRateMax: number | null;
  tpaRateEffective: number | null;
  independentRate: number;
  rateDate: string;
  rateSource: string;
  /** Days the independent rate is dated before the period end. */
  rateAgeDays: number;
  /** Dated more than `fxMaxAgeDays` before the period end: a 'stale rate' warning. */
  stale: boolean;
  /** (value-weighted TPA rate, sum |local| / sum |base|, - independent) / independent x 100: percent 0-100. */
  rateDiffPct: number | null;
  /** Every distinct TPA rate of the currency with its positions, rate difference (%) and FX impact. */
  tpaRates: Array<{ rate: number; positions: number; marketValueBase: number; rateDiffPct: number | null; impact: number }>;
  marketValueLocal: number;
  marketValueBaseTpa: number;
  marketValueBaseIndependent: number;
  impact: number;
}

/** One of the largest impacts in the price-testing summary (fund currency). */
export interface LargestImpact {
  securityId: string;
  name: string;
  currency: string | null;
  quantity: number;
  tpaPrice: number;
  independentPrice: number | null;
  independentPriceDate: string | null;
  independentPriceSource: string | null;
  tpaFx: number | null;
  independentFx: number | null;
  rateDate: string | null;
  rateSource: string | null;
  marketValueBase: number;
  priceImpact: number;
  fxImpact: number;
  impact: number;
  file: string;
  line: number;
}

/** `details` of the 'Price testing: total impact' item (the test was performed). */
export interface PriceTestingSummary {
  performed: true;
  tested: number;
  priceTested: number;
  fxTested: number;
  noIndependentPrice: number;
  flagged: number;
  net: number;
  gross: number;
  ownPriceSources: string[];
  currencies: CurrencyImpact[];
  untestedCurrencies: Array<{ currency: string; positions: number; marketValueBase: number }>;
  largest: LargestImpact[];
  pm: number;
  te: number;
  sad: number;
}

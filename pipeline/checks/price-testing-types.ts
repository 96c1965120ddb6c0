/** What price testing reports (`price-testing.ts`): the largest impacts and its summary item's details. */

/** One of the largest impacts in the price-testing summary (fund currency). */
export interface LargestImpact {
  securityId: string;
  name: string;
  currency: string | null;
  quantity: number;
  tpaPrice: number;
  independentPrice: number;
  independentPriceDate: string;
  independentPriceSource: string;
  /** The TPA's rate (units of the price currency per fund currency) the difference is brought into the fund currency with. */
  tpaFx: number;
  marketValueBase: number;
  impact: number;
  file: string;
  line: number;
}

/** `details` of the 'Price testing: total impact' item (the test was performed). */
export interface PriceTestingSummary {
  performed: true;
  tested: number;
  noIndependentPrice: number;
  /** Foreign holdings with an independent price but no TPA rate. */
  noTpaRate: number;
  flagged: number;
  net: number;
  gross: number;
  ownPriceSources: string[];
  largest: LargestImpact[];
  pm: number;
  te: number;
  sad: number;
}

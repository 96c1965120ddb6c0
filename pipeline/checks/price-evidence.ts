/**
 * The independent evidence price testing uses for one holding (DOMAIN.md 2.4 item 4): the
 * independent price (latest on or before the period end from a source that is not the TPA's own)
 * and the independent FX rate (latest on or before the period end), each with its date and
 * source, and the rate's age (too old to conclude on when dated more than `fxMaxAgeBusinessDays`
 * business days before the period end, `pipeline/fx/age.ts`). Shared by the checks and the work
 * paper's Holdings sheet, so both show the same evidence.
 */
import { chunksOf, type FundSdmData, type FxRate, type HoldingRow, type PriceRow } from '../sdm/rows.js';
import { DEFAULT_FX_MAX_AGE_BUSINESS_DAYS, rateAge, type RateAge } from '../fx/age.js';
import { isBaseCurrency, type CheckContext } from './common.js';
import { rateFor } from './fx.js';
import { tpaOwnSources } from './price-own-sources.js';

const key = (id: string) => id.trim().toUpperCase();

/** Whole days from ISO date `from` to ISO date `to` (positive when `from` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The evidence for one holding. */
export interface HoldingEvidence {
  /** Priced in a currency other than the fund's. */
  foreign: boolean;
  /** Price currency (upper case; the fund currency when none is given). */
  currency: string;
  /** Independent price of the same security (same price currency when both give one), or null. */
  price: PriceRow | null;
  /** Independent rate (units per fund currency) for a foreign holding, or null (none, or not foreign). */
  rate: FxRate | null;
  /** How old the rate is against the period end (null without a rate). */
  rateAge: RateAge | null;
  /** The rate is too old to conclude on (`RateAge.tooOld`). */
  tooOld: boolean;
}

/** Looks up the evidence of holdings; built once per fund (reads the prices once). */
export interface EvidenceLookup {
  /** Price sources taken as the TPA's own (lower case). */
  own: Set<string>;
  /** Independent prices by security id (upper case). */
  independent: Map<string, PriceRow>;
  /** Oldest acceptable rate age in business days. */
  maxAgeBusinessDays: number;
  of(h: HoldingRow): HoldingEvidence;
}

const NO_RATE = { rate: null, rateAge: null } as const;

/**
 * Builds the evidence lookup of a fund: reads `data.prices` once (and the holdings once when
 * there are prices, to find the TPA's own sources); `of(h)` is then O(log n) per holding.
 */
export async function evidenceLookup(data: FundSdmData, ctx: CheckContext): Promise<EvidenceLookup> {
  const own = await tpaOwnSources(data, ctx);
  const independent = new Map<string, PriceRow>();
  for await (const chunk of chunksOf(data.prices))
    for (const p of chunk) {
      if (own.has(p.price_source.trim().toLowerCase()) || p.price_date > ctx.periodEnd) continue;
      const k = key(p.security_id);
      const prev = independent.get(k);
      if (!prev || p.price_date >= prev.price_date) independent.set(k, p);
    }
  const rates = ctx.fxRates ?? [];
  const maxAgeBusinessDays = ctx.fxMaxAgeBusinessDays ?? DEFAULT_FX_MAX_AGE_BUSINESS_DAYS;
  // the rate of a currency and its age are the same for every holding in it: found once
  const byCurrency = new Map<string, { rate: FxRate | null; rateAge: RateAge | null }>();
  const rateOf = (currency: string) => {
    let r = byCurrency.get(currency);
    if (!r) {
      const rate = rateFor(rates, currency, ctx.periodEnd) ?? null;
      r = { rate, rateAge: rate ? rateAge(rate.rate_date, ctx.periodEnd, maxAgeBusinessDays) : null };
      byCurrency.set(currency, r);
    }
    return r;
  };
  return {
    own,
    independent,
    maxAgeBusinessDays,
    of(h) {
      const foreign = !isBaseCurrency(h.price_currency, ctx.currency);
      const currency = (h.price_currency ?? ctx.currency).toUpperCase();
      const { rate, rateAge: age } = foreign ? rateOf(currency) : NO_RATE;
      let price = independent.get(key(h.security_id)) ?? null;
      if (price?.price_currency && h.price_currency && price.price_currency.toUpperCase() !== currency) price = null;
      return { foreign, currency, price, rate, rateAge: age, tooOld: age?.tooOld ?? false };
    },
  };
}

/**
 * Price testing (DOMAIN.md 2.4 item 4), only when the fund has external valuations (`ctx.
 * externalValuations`). Per holding, in fund currency (impact = TPA value - independent value):
 * - Price: TPA price vs an independent price: the latest PriceRow of the same security id dated on
 *   or before the period end from a source that is not the TPA's own (see `tpaOwnSources`), in the
 *   same price currency when both give one. Impact = quantity x (TPA price - independent price)
 *   / q / TPA fx rate, q = 100 for prices per 100 of nominal (`priceFactor`), 1 per unit.
 * - FX, for holdings priced in another currency: the independent rate (`rateFor`, units per base,
 *   latest on or before the period end) re-translates the local value; impact = TPA
 *   market_value_base - market_value_local / independent rate. A rate dated more than
 *   `ctx.fxMaxAgeDays` (default 5) before the period end gives one 'Stale rate' warning item per
 *   currency (the positions are still tested with it); a foreign holding with no rate on or
 *   before the period end gets an item 'FX not tested' (NOT PERFORMED, file + line).
 *   Every rate and price used is reported with its date and source (`price-evidence.ts`).
 * A holding's impact = price impact + FX impact. Holdings with |impact| > TE amount are flagged,
 * one fail item each (file + line). A summary item compares the net total impact with PM: fail
 * above PM, warning above SAD, pass otherwise (gross total, untested holdings, per-currency rates
 * and the 25 largest impacts in details; rate differences as percentages 0-100).
 * Not performed (one item, a warning with `notPerformed` giving the reason, never a pass):
 * external valuations off, no holdings, or no independent price / FX rate at all. Holdings are
 * read in one pass (plus one to find the TPA's own price sources); only totals, the 25 largest
 * impacts and the flagged items (limited as they come) are kept.
 */
import type { FundSdmData, FxRate, HoldingRow, PriceRow, QaRec } from '../sdm/rows.js';
import {
  DEFAULT_MAX_ITEMS_PER_CHECK,
  fmt,
  isBaseCurrency,
  ItemLimit,
  localValue,
  priceFactor,
  round,
  runPass,
  sourceOf,
  statusFor,
  Sum,
  type CheckContext,
  type HoldingsPass,
} from './common.js';
import { daysBetween, evidenceLookup } from './price-evidence.js';
import type { CurrencyImpact, LargestImpact, PriceTestingSummary } from './price-testing-types.js';

export type { CurrencyImpact, LargestImpact, PriceTestingSummary } from './price-testing-types.js';

export const PRICE_TESTING = 'price_testing';

export { tpaOwnSources } from './price-own-sources.js';

/** A tested holding's impacts (fund currency) and the evidence used. */
interface Impact {
  h: HoldingRow;
  priceImpact: number;
  fxImpact: number;
  impact: number;
  independentPrice: PriceRow | null;
  rate: FxRate | null;
}

/** The `n` largest impacts by absolute value (ties: the earlier holding first), kept as they come. */
class Largest {
  readonly list: Impact[] = [];
  constructor(private readonly n: number) {}
  add(x: Impact): void {
    const a = Math.abs(x.impact);
    const list = this.list;
    if (list.length === this.n && a <= Math.abs(list[list.length - 1].impact)) return;
    let i = list.length;
    while (i > 0 && Math.abs(list[i - 1].impact) < a) i--;
    list.splice(i, 0, x);
    if (list.length > this.n) list.pop();
  }
}

/** Per price currency: positions and sums of the FX re-translation. */
interface CcyTotals {
  positions: number;
  local: Sum;
  baseTpa: Sum;
  baseInd: Sum;
  impact: Sum;
  absLocal: Sum;
  absBase: Sum;
  tpaRates: Map<number, { positions: number; base: Sum; impact: Sum }>;
  rate: FxRate;
}

/** Price testing as a holdings pass (see the module's description); prices are read when it is made. */
export async function priceTestingPass(data: FundSdmData, ctx: CheckContext): Promise<HoldingsPass> {
  const { pm, te, sad } = ctx.materiality;
  const base = { check: PRICE_TESTING, name: 'Price testing' };
  if (!ctx.externalValuations) {
    return {
      add: () => {},
      finish: () => [
        {
          ...base,
          status: 'warning',
          diff: 0,
          threshold: null,
          message: 'Not performed: the fund has no external valuations (external_valuations = N)',
          notPerformed: 'the fund has no external valuations (external_valuations = N)',
          details: { performed: false },
        },
      ],
    };
  }
  const evidence = await evidenceLookup(data, ctx);
  const { own, independent } = evidence;
  const rates = ctx.fxRates ?? [];
  // whether the test is performed is known at the end of the pass (a foreign holding may come last):
  // until then a holding that cannot be tested is remembered, and only thrown when it is performed
  let anyForeign = false;
  let failure: { error: unknown } | null = null;

  // one pass over the holdings: flagged items, totals and the largest impacts, nothing per holding kept
  const items = new ItemLimit(PRICE_TESTING, Math.max(2, ctx.maxItemsPerCheck ?? DEFAULT_MAX_ITEMS_PER_CHECK) - 1);
  const largestImpacts = new Largest(25);
  const net = new Sum();
  const grossSum = new Sum();
  let holdings = 0;
  let tested = 0;
  let priceTested = 0;
  let fxTested = 0;
  let noPrice = 0;
  let flagged = 0;
  const noRate = new Map<string, { positions: number; base: Sum }>();
  const byCcy = new Map<string, CcyTotals>();
  const test = (h: HoldingRow): void => {
    holdings++;
    const ev = evidence.of(h);
    const isForeign = ev.foreign;
    if (isForeign && rates.length) anyForeign = true;
    const ccy = ev.currency;
    const local = localValue(h);
    const rate = ev.rate;
    const tpaFx = isForeign ? (h.fx_rate ?? (local && h.market_value_base ? local / h.market_value_base : (rate?.units_per_base ?? null))) : 1;
    let priceImpact = 0;
    const ip = ev.price;
    if (ip && tpaFx) priceImpact = (h.quantity * (h.price - ip.price)) / priceFactor(h) / tpaFx;
    else noPrice++;
    let fxImpact = 0;
    if (isForeign && rate && local !== null) {
      const recomputed = local / rate.units_per_base;
      fxImpact = h.market_value_base - recomputed;
      let c = byCcy.get(ccy);
      if (!c)
        byCcy.set(
          ccy,
          (c = {
            positions: 0,
            local: new Sum(),
            baseTpa: new Sum(),
            baseInd: new Sum(),
            impact: new Sum(),
            absLocal: new Sum(),
            absBase: new Sum(),
            tpaRates: new Map(),
            rate,
          }),
        );
      c.positions++;
      c.local.add(local);
      c.baseTpa.add(h.market_value_base);
      c.baseInd.add(recomputed);
      c.impact.add(fxImpact);
      c.absLocal.add(Math.abs(local));
      c.absBase.add(Math.abs(h.market_value_base));
      if (tpaFx) {
        let r = c.tpaRates.get(tpaFx);
        if (!r) c.tpaRates.set(tpaFx, (r = { positions: 0, base: new Sum(), impact: new Sum() }));
        r.positions++;
        r.base.add(h.market_value_base);
        r.impact.add(fxImpact);
      }
    } else if (isForeign) {
      let c = noRate.get(ccy);
      if (!c) noRate.set(ccy, (c = { positions: 0, base: new Sum() }));
      c.positions++;
      c.base.add(h.market_value_base);
      const reason =
        local === null
          ? `no local market value or TPA rate to re-translate the ${ccy} position`
          : `no independent ${ccy} rate dated on or before the period end ${ctx.periodEnd}`;
      items.offer('warning', () => ({
        check: PRICE_TESTING,
        name: `${h.security_id}: FX not tested`,
        status: 'warning',
        diff: 0,
        threshold: null,
        ...sourceOf(h),
        message: `Not performed: FX test of ${h.security_name} (${ccy}, ${fmt(h.market_value_base)} ${ctx.currency}): ${reason}`,
        notPerformed: reason,
        details: { currency: ccy, marketValueBase: h.market_value_base },
      }));
    }
    const fxTestedHere = isForeign && rate !== null && local !== null;
    if (!((ip && tpaFx) || fxTestedHere)) return;
    const x: Impact = { h, priceImpact, fxImpact, impact: priceImpact + fxImpact, independentPrice: ip && tpaFx ? ip : null, rate: fxTestedHere ? rate : null };
    tested++;
    if (x.independentPrice) priceTested++;
    if (x.rate) fxTested++;
    net.add(x.impact);
    grossSum.add(Math.abs(x.impact));
    largestImpacts.add(x);
    if (Math.abs(x.impact) <= te) return;
    flagged++;
    items.offer('fail', () => {
      const parts = [
        x.independentPrice &&
          `price ${h.price} vs ${x.independentPrice.price} (${x.independentPrice.price_source} ${x.independentPrice.price_date}): ${fmt(x.priceImpact)}`,
        x.rate && `FX ${h.fx_rate} vs ${x.rate.units_per_base} (${x.rate.source} ${x.rate.rate_date}): ${fmt(x.fxImpact)}`,
      ].filter(Boolean);
      return {
        check: PRICE_TESTING,
        name: h.security_id,
        status: 'fail',
        diff: round(x.impact),
        threshold: te,
        ...sourceOf(h),
        message: `${h.security_name}: value impact ${fmt(x.impact)} ${ctx.currency} above TE ${fmt(te)} (${parts.join('; ')})`,
        details: {
          quantity: h.quantity,
          tpaPrice: h.price,
          independentPrice: x.independentPrice?.price ?? null,
          priceSource: x.independentPrice?.price_source ?? null,
          priceDate: x.independentPrice?.price_date ?? null,
          rateDate: x.rate?.rate_date ?? null,
          rateSource: x.rate?.source ?? null,
          tpaFx: h.fx_rate,
          independentFx: x.rate?.units_per_base ?? null,
          priceImpact: round(x.priceImpact),
          fxImpact: round(x.fxImpact),
        },
      };
    });
  };
  const add = (h: HoldingRow): void => {
    if (failure) {
      if (!anyForeign && rates.length && !isBaseCurrency(h.price_currency, ctx.currency)) anyForeign = true;
      return;
    }
    try {
      test(h);
    } catch (error) {
      failure = { error };
    }
  };
  const finish = (): QaRec[] => {
    if (!holdings) {
      return [
        {
          ...base,
          status: 'warning',
          diff: 0,
          threshold: null,
          message: 'Not performed: no holdings delivered',
          notPerformed: 'no holdings delivered',
          details: { performed: false },
        },
      ];
    }
    if (!independent.size && !anyForeign) {
      return [
        {
          ...base,
          status: 'warning',
          diff: 0,
          threshold: null,
          message: `Not performed: no independent prices (price sources ${[...own].join(', ') || 'none'} are the TPA's own) and no independent FX rates for foreign-currency holdings`,
          notPerformed: `no independent prices (price sources ${[...own].join(', ') || 'none'} are the TPA's own) and no independent FX rates for foreign-currency holdings`,
          details: { performed: false },
        },
      ];
    }
    if (failure) throw failure.error;
    return summarise();
  };
  const summarise = (): QaRec[] => {
    const netTotal = round(net.value);
    const gross = round(grossSum.value);
    const status = statusFor(netTotal, sad, pm);
    const pct = (tpa: number | null, ind: number) => (tpa ? ((tpa - ind) / ind) * 100 : null);
    const currencies = [...byCcy]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, c]): CurrencyImpact => {
        const absBase = c.absBase.value;
        const effective = absBase ? c.absLocal.value / absBase : null;
        const ind = c.rate.units_per_base;
        const tpaRates = [...c.tpaRates]
          .sort((a, b) => a[0] - b[0])
          .map(([rate, r]) => ({
            rate,
            positions: r.positions,
            marketValueBase: round(r.base.value),
            rateDiffPct: pct(rate, ind),
            impact: round(r.impact.value),
          }));
        return {
          currency,
          positions: c.positions,
          tpaRateMin: tpaRates[0]?.rate ?? null,
          tpaRateMax: tpaRates[tpaRates.length - 1]?.rate ?? null,
          tpaRateEffective: effective,
          independentRate: ind,
          rateDate: c.rate.rate_date,
          rateSource: c.rate.source,
          rateAgeDays: daysBetween(c.rate.rate_date, ctx.periodEnd),
          stale: daysBetween(c.rate.rate_date, ctx.periodEnd) > evidence.maxAgeDays,
          /** (value-weighted TPA rate, sum |local| / sum |base|, - independent) / independent x 100: percent 0-100. */
          rateDiffPct: pct(effective, ind),
          /** Every distinct TPA rate of the currency with its positions, rate difference (%) and FX impact. */
          tpaRates,
          marketValueLocal: round(c.local.value),
          marketValueBaseTpa: round(c.baseTpa.value),
          marketValueBaseIndependent: round(c.baseInd.value),
          impact: round(c.impact.value),
        };
      });
    const largest = largestImpacts.list.map(
      (x): LargestImpact => ({
        securityId: x.h.security_id,
        name: x.h.security_name,
        currency: x.h.price_currency,
        quantity: x.h.quantity,
        tpaPrice: x.h.price,
        independentPrice: x.independentPrice?.price ?? null,
        independentPriceDate: x.independentPrice?.price_date ?? null,
        independentPriceSource: x.independentPrice?.price_source ?? null,
        tpaFx: x.h.fx_rate,
        independentFx: x.rate?.units_per_base ?? null,
        rateDate: x.rate?.rate_date ?? null,
        rateSource: x.rate?.source ?? null,
        marketValueBase: x.h.market_value_base,
        priceImpact: round(x.priceImpact),
        fxImpact: round(x.fxImpact),
        impact: round(x.impact),
        file: x.h.file,
        line: x.h.line,
      }),
    );
    const untestedCcy = [...noRate].map(([currency, c]) => ({ currency, positions: c.positions, marketValueBase: round(c.base.value) }));
    for (const c of currencies.filter((x) => x.stale)) {
      items.offer('warning', () => ({
        check: PRICE_TESTING,
        name: `Stale rate ${c.currency}`,
        status: 'warning',
        diff: c.impact,
        threshold: null,
        message: `Stale rate: the independent ${c.currency} rate ${c.independentRate} (${c.rateSource}) is dated ${c.rateDate}, ${c.rateAgeDays} days before the period end ${ctx.periodEnd} (more than ${evidence.maxAgeDays}); ${c.positions} position(s) re-translated with it, FX impact ${fmt(c.impact)} ${ctx.currency}`,
        details: {
          currency: c.currency,
          rateDate: c.rateDate,
          rateSource: c.rateSource,
          rateAgeDays: c.rateAgeDays,
          maxAgeDays: evidence.maxAgeDays,
          positions: c.positions,
        },
      }));
    }
    const out = items.items();
    out.push({
      ...base,
      name: 'Price testing: total impact',
      status,
      diff: netTotal,
      threshold: status === 'fail' ? pm : sad,
      message: `${tested} of ${holdings} holdings tested (${priceTested} against an independent price, ${fxTested} against independent FX): net impact ${fmt(netTotal)} ${ctx.currency} (gross ${fmt(gross)}) vs SAD ${fmt(sad)} / PM ${fmt(pm)}; ${flagged} holding(s) above TE ${fmt(te)}${untestedCcy.length ? `; no independent rate for ${untestedCcy.map((c) => c.currency).join(', ')}` : ''}`,
      details: {
        performed: true,
        tested,
        priceTested,
        fxTested,
        noIndependentPrice: noPrice,
        flagged,
        net: netTotal,
        gross,
        ownPriceSources: [...own],
        currencies,
        untestedCurrencies: untestedCcy,
        largest,
        pm,
        te,
        sad,
      } satisfies PriceTestingSummary,
    });
    return out;
  };
  return { add, finish };
}

export function priceTesting(data: FundSdmData, ctx: CheckContext): Promise<QaRec[]> {
  return runPass(priceTestingPass(data, ctx), data.holdings);
}

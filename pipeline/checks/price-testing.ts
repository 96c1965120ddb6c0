/**
 * Price testing (DOMAIN.md 2.4 item 4), only when the fund has external valuations (`ctx.
 * externalValuations`). Per holding, in fund currency (impact = TPA value - independent value):
 * - Price: TPA price vs an independent price: the latest PriceRow of the same security id dated on
 *   or before the period end from a source that is not the TPA's own (see `tpaOwnSources`), in the
 *   same price currency when both give one. Impact = quantity x (TPA price - independent price)
 *   / q / TPA fx rate, q = 100 for prices per 100 of nominal (`priceFactor`), 1 per unit.
 * - FX, for holdings priced in another currency: the independent rate (`rateFor`, units per base,
 *   latest on or before the period end) re-translates the local value; impact = TPA
 *   market_value_base - market_value_local / independent rate.
 * A holding's impact = price impact + FX impact. Holdings with |impact| > TE amount are flagged,
 * one fail item each (file + line). A summary item compares the net total impact with PM: fail
 * above PM, warning above SAD, pass otherwise (gross total, untested holdings, per-currency rates
 * and the 25 largest impacts in details; rate differences as percentages 0-100).
 * Not performed (one item): external valuations off (pass), or no independent price / FX rate at
 * all (warning).
 */
import type { FundSdmData, FxRate, HoldingRow, PriceRow, QaRec } from '../sdm/rows.js';
import { fmt, isBaseCurrency, localValue, priceFactor, round, statusFor, sum, type CheckContext } from './common.js';
import { rateFor } from './fx.js';

export const PRICE_TESTING = 'price_testing';

const key = (id: string) => id.trim().toUpperCase();
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Price sources that are the TPA's own, not independent evidence: those in ctx.tpaPriceSources;
 * those contained in the administrator's name (source 'Meridian' for 'Meridian Fund Services');
 * and any source whose every price equals the TPA's holding price of the same security (a copy of
 * the TPA's prices, as in the fixtures' prices files).
 */
export function tpaOwnSources(data: FundSdmData, ctx: CheckContext): Set<string> {
  const own = new Set((ctx.tpaPriceSources ?? []).map((s) => s.trim().toLowerCase()));
  const admin = (ctx.administrator ?? '').toLowerCase();
  const holdingPrice = new Map(data.holdings.map((h) => [key(h.security_id), h.price]));
  const copies = new Map<string, boolean>();
  for (const p of data.prices) {
    const s = p.price_source.trim().toLowerCase();
    const hp = holdingPrice.get(key(p.security_id));
    if (hp === undefined) continue;
    copies.set(s, (copies.get(s) ?? true) && same(hp, p.price));
  }
  for (const [s, copy] of copies) if (copy || (admin && s && admin.includes(s))) own.add(s);
  return own;
}

interface Impact {
  h: HoldingRow;
  priceImpact: number;
  fxImpact: number;
  impact: number;
  independentPrice: PriceRow | null;
  rate: FxRate | null;
}

export function priceTesting(data: FundSdmData, ctx: CheckContext): QaRec[] {
  const { pm, te, sad } = ctx.materiality;
  const base = { check: PRICE_TESTING, name: 'Price testing' };
  if (!ctx.externalValuations) {
    return [{ ...base, status: 'pass', diff: 0, threshold: null, message: 'Not performed: the fund has no external valuations (external_valuations = N)', details: { performed: false } }];
  }
  const own = tpaOwnSources(data, ctx);
  const independent = new Map<string, PriceRow>();
  for (const p of data.prices) {
    if (own.has(p.price_source.trim().toLowerCase()) || p.price_date > ctx.periodEnd) continue;
    const k = key(p.security_id);
    const prev = independent.get(k);
    if (!prev || p.price_date >= prev.price_date) independent.set(k, p);
  }
  const rates = ctx.fxRates ?? [];
  const foreign = data.holdings.filter((h) => !isBaseCurrency(h.price_currency, ctx.currency));
  if (!independent.size && !(rates.length && foreign.length)) {
    return [{ ...base, status: 'warning', diff: 0, threshold: null, message: `Not performed: no independent prices (price sources ${[...own].join(', ') || 'none'} are the TPA's own) and no independent FX rates for foreign-currency holdings`, details: { performed: false } }];
  }

  const impacts: Impact[] = [];
  const noPrice: HoldingRow[] = [];
  const noRate = new Map<string, { positions: number; base: number[] }>();
  type CcyTotals = { positions: number; local: number[]; baseTpa: number[]; baseInd: number[]; impact: number[]; absLocal: number[]; absBase: number[]; tpaRates: Map<number, { positions: number; base: number[]; impact: number[] }>; rate: FxRate };
  const byCcy = new Map<string, CcyTotals>();
  for (const h of data.holdings) {
    const isForeign = !isBaseCurrency(h.price_currency, ctx.currency);
    const ccy = (h.price_currency ?? ctx.currency).toUpperCase();
    const local = localValue(h);
    const rate = isForeign ? rateFor(rates, ccy, ctx.periodEnd) ?? null : null;
    const tpaFx = isForeign ? h.fx_rate ?? (local && h.market_value_base ? local / h.market_value_base : rate?.units_per_base ?? null) : 1;
    let priceImpact = 0;
    let ip = independent.get(key(h.security_id)) ?? null;
    if (ip && ip.price_currency && h.price_currency && ip.price_currency.toUpperCase() !== ccy) ip = null;
    if (ip && tpaFx) priceImpact = (h.quantity * (h.price - ip.price)) / priceFactor(h) / tpaFx;
    else noPrice.push(h);
    let fxImpact = 0;
    if (isForeign && rate && local !== null) {
      const recomputed = local / rate.units_per_base;
      fxImpact = h.market_value_base - recomputed;
      const c: CcyTotals = byCcy.get(ccy) ?? { positions: 0, local: [], baseTpa: [], baseInd: [], impact: [], absLocal: [], absBase: [], tpaRates: new Map(), rate };
      c.positions++;
      c.local.push(local);
      c.baseTpa.push(h.market_value_base);
      c.baseInd.push(recomputed);
      c.impact.push(fxImpact);
      c.absLocal.push(Math.abs(local));
      c.absBase.push(Math.abs(h.market_value_base));
      if (tpaFx) {
        const r = c.tpaRates.get(tpaFx) ?? { positions: 0, base: [], impact: [] };
        r.positions++;
        r.base.push(h.market_value_base);
        r.impact.push(fxImpact);
        c.tpaRates.set(tpaFx, r);
      }
      byCcy.set(ccy, c);
    } else if (isForeign) {
      const c = noRate.get(ccy) ?? { positions: 0, base: [] };
      c.positions++;
      c.base.push(h.market_value_base);
      noRate.set(ccy, c);
    }
    const fxTested = isForeign && rate !== null && local !== null;
    if ((ip && tpaFx) || fxTested) impacts.push({ h, priceImpact, fxImpact, impact: priceImpact + fxImpact, independentPrice: ip && tpaFx ? ip : null, rate: fxTested ? rate : null });
  }

  const items: QaRec[] = [];
  for (const x of impacts) {
    if (Math.abs(x.impact) <= te) continue;
    const h = x.h;
    const parts = [
      x.independentPrice && `price ${h.price} vs ${x.independentPrice.price} (${x.independentPrice.price_source} ${x.independentPrice.price_date}): ${fmt(x.priceImpact)}`,
      x.rate && `FX ${h.fx_rate} vs ${x.rate.units_per_base} (${x.rate.rate_date}): ${fmt(x.fxImpact)}`,
    ].filter(Boolean);
    items.push({
      check: PRICE_TESTING, name: h.security_id, status: 'fail', diff: round(x.impact), threshold: te, file: h.file, line: h.line,
      message: `${h.security_name}: value impact ${fmt(x.impact)} ${ctx.currency} above TE ${fmt(te)} (${parts.join('; ')})`,
      details: { quantity: h.quantity, tpaPrice: h.price, independentPrice: x.independentPrice?.price ?? null, priceSource: x.independentPrice?.price_source ?? null, tpaFx: h.fx_rate, independentFx: x.rate?.units_per_base ?? null, priceImpact: round(x.priceImpact), fxImpact: round(x.fxImpact) },
    });
  }

  const net = round(sum(impacts.map((x) => x.impact)));
  const gross = round(sum(impacts.map((x) => Math.abs(x.impact))));
  const status = statusFor(net, sad, pm);
  const pct = (tpa: number | null, ind: number) => (tpa ? ((tpa - ind) / ind) * 100 : null);
  const currencies = [...byCcy].sort(([a], [b]) => a.localeCompare(b)).map(([currency, c]) => {
    const absBase = sum(c.absBase);
    const effective = absBase ? sum(c.absLocal) / absBase : null;
    const ind = c.rate.units_per_base;
    const tpaRates = [...c.tpaRates].sort((a, b) => a[0] - b[0]).map(([rate, r]) => ({
      rate, positions: r.positions, marketValueBase: round(sum(r.base)), rateDiffPct: pct(rate, ind), impact: round(sum(r.impact)),
    }));
    return {
      currency, positions: c.positions, tpaRateMin: tpaRates[0]?.rate ?? null, tpaRateMax: tpaRates[tpaRates.length - 1]?.rate ?? null,
      tpaRateEffective: effective, independentRate: ind, rateDate: c.rate.rate_date, rateSource: c.rate.source,
      /** (value-weighted TPA rate, sum |local| / sum |base|, - independent) / independent x 100: percent 0-100. */
      rateDiffPct: pct(effective, ind),
      /** Every distinct TPA rate of the currency with its positions, rate difference (%) and FX impact. */
      tpaRates,
      marketValueLocal: round(sum(c.local)), marketValueBaseTpa: round(sum(c.baseTpa)), marketValueBaseIndependent: round(sum(c.baseInd)), impact: round(sum(c.impact)),
    };
  });
  const largest = [...impacts].sort((a, b) => Math.abs(b.impact) - Math.abs(a.impact)).slice(0, 25).map((x) => ({
    securityId: x.h.security_id, name: x.h.security_name, currency: x.h.price_currency, quantity: x.h.quantity,
    tpaPrice: x.h.price, independentPrice: x.independentPrice?.price ?? null, tpaFx: x.h.fx_rate, independentFx: x.rate?.units_per_base ?? null,
    marketValueBase: x.h.market_value_base, priceImpact: round(x.priceImpact), fxImpact: round(x.fxImpact), impact: round(x.impact), file: x.h.file, line: x.h.line,
  }));
  const priceTested = impacts.filter((x) => x.independentPrice).length;
  const fxTested = impacts.filter((x) => x.rate).length;
  const untestedCcy = [...noRate].map(([currency, c]) => ({ currency, positions: c.positions, marketValueBase: round(sum(c.base)) }));
  items.push({
    ...base, name: 'Price testing: total impact', status, diff: net, threshold: status === 'fail' ? pm : sad,
    message: `${impacts.length} of ${data.holdings.length} holdings tested (${priceTested} against an independent price, ${fxTested} against independent FX): net impact ${fmt(net)} ${ctx.currency} (gross ${fmt(gross)}) vs SAD ${fmt(sad)} / PM ${fmt(pm)}; ${items.length} holding(s) above TE ${fmt(te)}${untestedCcy.length ? `; no independent rate for ${untestedCcy.map((c) => c.currency).join(', ')}` : ''}`,
    details: {
      performed: true, tested: impacts.length, priceTested, fxTested, noIndependentPrice: noPrice.length, flagged: items.length, net, gross,
      ownPriceSources: [...own], currencies, untestedCurrencies: untestedCcy, largest, pm, te, sad,
    },
  });
  return items;
}

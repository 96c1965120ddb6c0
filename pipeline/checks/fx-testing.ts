/**
 * FX testing (docs/decisions/0021-fx-rates.md): the rates the TPA used to bring foreign-currency
 * holdings into the fund currency, tested against independent rates. Per currency of the fund's
 * foreign holdings (in fund currency; rates in units per one unit of the fund currency):
 * - the TPA's rates: each position's `fx_rate` (delivered, or taken from the TPA's FX table when
 *   its base value was converted), else implied by its local and base values;
 * - the independent rate: the currency's latest rate in `ctx.fxRates` dated on or before the
 *   period end. None, or one dated more than `ctx.fxMaxAgeBusinessDays` business days before the
 *   period end (default 5): the currency is NOT PERFORMED, naming the rate's date, and nothing is
 *   concluded from it;
 * - each distinct TPA rate differing from the independent rate by more than the fund's tolerance
 *   (`ctx.fxTolerancePct`, percent; default 0.5) is an exception; its value impact is
 *   sum(base value - local value / independent rate) of its positions. The currency's item is
 *   judged on its exceptions' impact as the other checks are: pass at or below SAD, warning above
 *   SAD, fail above TE. Differences within the tolerance (the gap between a 4 pm London rate and
 *   the ECB's 14:15 CET fixing, for example) are shown, not counted.
 * One item per currency (name `FX <currency>`), then 'FX testing: total impact': the exceptions'
 * net impact against SAD (warning) and PM (fail). Without foreign holdings the total passes
 * saying so; without holdings, or with no currency tested, it is NOT PERFORMED.
 * Holdings are read in one pass; per currency only sums, its distinct TPA rates and 20 lines are kept.
 */
import { DEFAULT_FX_MAX_AGE_BUSINESS_DAYS, describeAge, rateAge } from '../fx/age.js';
import { fmtRate } from '../fx/format.js';
import type { FundSdmData, HoldingRow, QaRec } from '../sdm/rows.js';
import { rateFor } from './fx.js';
import { fmt, isBaseCurrency, localValue, round, runPass, statusFor, Sum, type CheckContext, type HoldingsPass } from './common.js';
import type { FxCurrencyResult, FxTestingSummary, TpaRateTested } from './fx-testing-types.js';

export type { FxCurrencyResult, FxTestingSummary, TpaRateTested } from './fx-testing-types.js';

export const FX_TESTING = 'fx_testing';
/** Name of the total item. */
export const FX_TOTAL = 'FX testing: total impact';
/** Default of `CheckContext.fxTolerancePct` (setting `fxTolerancePct`). */
export const DEFAULT_FX_TOLERANCE_PCT = 0.5;

const LINES_KEPT = 20;

interface RateSums {
  positions: number;
  local: Sum;
  base: Sum;
}

interface CcySums {
  positions: number;
  local: Sum;
  base: Sum;
  absLocal: Sum;
  absBase: Sum;
  /** Positions without a local value or any TPA rate. */
  noRate: number;
  rates: Map<number, RateSums>;
  lines: number[];
  /** From the FX table (first position converted with it), or the kind of TPA rate. */
  table: { file: string; line: number; date: string | null; source: string | null } | null;
  delivered: boolean;
  implied: boolean;
}

const newSums = (): CcySums => ({
  positions: 0,
  local: new Sum(),
  base: new Sum(),
  absLocal: new Sum(),
  absBase: new Sum(),
  noRate: 0,
  rates: new Map(),
  lines: [],
  table: null,
  delivered: false,
  implied: false,
});

/** Percent with up to 3 decimals, for messages. */
const pctText = (x: number) => `${round(x, 3)}%`;

/** FX testing as a holdings pass (see the module's description). */
export function fxTestingPass(_data: FundSdmData, ctx: CheckContext): HoldingsPass {
  const { pm, te, sad } = ctx.materiality;
  const tolerance = ctx.fxTolerancePct ?? DEFAULT_FX_TOLERANCE_PCT;
  const maxAge = ctx.fxMaxAgeBusinessDays ?? DEFAULT_FX_MAX_AGE_BUSINESS_DAYS;
  const base = ctx.currency.toUpperCase();
  const byCcy = new Map<string, CcySums>();
  let holdings = 0;
  let foreign = 0;

  const add = (h: HoldingRow): void => {
    holdings++;
    if (isBaseCurrency(h.price_currency, base)) return;
    foreign++;
    const ccy = (h.price_currency as string).trim().toUpperCase();
    let c = byCcy.get(ccy);
    if (!c) byCcy.set(ccy, (c = newSums()));
    c.positions++;
    if (c.lines.length < LINES_KEPT) c.lines.push(h.line);
    const local = localValue(h);
    const rate = h.fx_rate ?? (local !== null && h.market_value_base ? local / h.market_value_base : null);
    if (local === null || !rate) {
      c.noRate++;
      return;
    }
    if (h.fx_rate_file) c.table ??= { file: h.fx_rate_file, line: h.fx_rate_line ?? 0, date: h.fx_rate_date ?? null, source: h.fx_rate_source ?? null };
    else if (h.fx_rate !== null && h.fx_rate !== undefined) c.delivered = true;
    else c.implied = true;
    c.local.add(local);
    c.base.add(h.market_value_base);
    c.absLocal.add(Math.abs(local));
    c.absBase.add(Math.abs(h.market_value_base));
    let r = c.rates.get(rate);
    if (!r) c.rates.set(rate, (r = { positions: 0, local: new Sum(), base: new Sum() }));
    r.positions++;
    r.local.add(local);
    r.base.add(h.market_value_base);
  };

  const sourceOf = (c: CcySums): string => {
    const parts = [
      c.table && `FX table ${c.table.file} line ${c.table.line}${c.table.date ? ` (${c.table.date})` : ''}${c.table.source ? `, ${c.table.source}` : ''}`,
      c.delivered && 'holdings fx_rate',
      c.implied && 'implied by local and base values',
    ].filter(Boolean);
    return parts.join('; ') || 'none';
  };

  const result = (currency: string, c: CcySums): FxCurrencyResult => {
    const rates = [...c.rates.keys()].sort((a, b) => a - b);
    const absBase = c.absBase.value;
    const out: FxCurrencyResult = {
      currency,
      positions: c.positions,
      marketValueLocal: round(c.local.value),
      marketValueBaseTpa: round(c.base.value),
      tpaRateSource: sourceOf(c),
      tpaRateDate: c.table?.date ?? null,
      tpaRateMin: rates[0] ?? null,
      tpaRateMax: rates[rates.length - 1] ?? null,
      tpaRateEffective: absBase ? c.absLocal.value / absBase : null,
      independentRate: null,
      rateDate: null,
      rateSource: null,
      rateAgeDays: null,
      rateAgeBusinessDays: null,
      notPerformed: null,
      rateDiffPct: null,
      marketValueBaseIndependent: null,
      exceptionImpact: 0,
      impact: 0,
      tpaRates: [],
      lines: c.lines,
    };
    const ind = rateFor(ctx.fxRates ?? [], currency, ctx.periodEnd);
    if (!ind) {
      out.notPerformed = `no independent ${currency} rate per ${base} dated on or before the period end ${ctx.periodEnd}`;
      return out;
    }
    const age = rateAge(ind.rate_date, ctx.periodEnd, maxAge);
    Object.assign(out, {
      independentRate: ind.units_per_base,
      rateDate: ind.rate_date,
      rateSource: ind.source,
      rateAgeDays: age.days,
      rateAgeBusinessDays: age.businessDays,
    });
    if (age.tooOld) {
      out.notPerformed = `the latest independent ${currency} rate, ${fmtRate(ind.units_per_base)} (${ind.source}), is ${describeAge(ind.rate_date, ctx.periodEnd, age)}: too old to conclude on`;
      return out;
    }
    if (!rates.length) {
      out.notPerformed = `no local market value or TPA rate on its ${c.positions} position(s)`;
      return out;
    }
    const x = ind.units_per_base;
    const exceptions = new Sum();
    out.tpaRates = rates.map((rate): TpaRateTested => {
      const r = c.rates.get(rate)!;
      const rateDiffPct = ((rate - x) / x) * 100;
      const impact = r.base.value - r.local.value / x;
      const exception = Math.abs(rateDiffPct) > tolerance + 1e-9;
      if (exception) exceptions.add(impact);
      return { rate, positions: r.positions, marketValueBase: round(r.base.value), rateDiffPct, exception, impact: round(impact) };
    });
    out.rateDiffPct = out.tpaRateEffective === null ? null : ((out.tpaRateEffective - x) / x) * 100;
    out.marketValueBaseIndependent = round(c.local.value / x);
    out.impact = round(c.base.value - c.local.value / x);
    out.exceptionImpact = round(exceptions.value);
    return out;
  };

  const currencyItem = (r: FxCurrencyResult): QaRec => {
    const name = `FX ${r.currency}`;
    const what = `${r.positions} position(s), ${fmt(r.marketValueBaseTpa)} ${base}`;
    if (r.notPerformed)
      return {
        check: FX_TESTING,
        name,
        status: 'warning',
        diff: 0,
        threshold: null,
        message: `Not performed: ${r.currency} (${what}): ${r.notPerformed}`,
        notPerformed: r.notPerformed,
        details: { ...r },
      };
    const n = r.tpaRates.length;
    const out = r.tpaRates.filter((t) => t.exception);
    const rateText =
      n === 1
        ? `TPA rate ${fmtRate(r.tpaRates[0].rate)}`
        : `${n} TPA rates ${fmtRate(r.tpaRateMin)} to ${fmtRate(r.tpaRateMax)} (weighted ${fmtRate(r.tpaRateEffective)})`;
    const vs = `vs independent ${fmtRate(r.independentRate)} (${r.rateSource}, ${r.rateDate})`;
    if (!out.length)
      return {
        check: FX_TESTING,
        name,
        status: 'pass',
        diff: 0,
        threshold: null,
        message: `${r.currency} (${what}): ${rateText} ${vs}: difference ${pctText(r.rateDiffPct ?? 0)}, within the tolerance ${tolerance}% (value effect ${fmt(r.impact)} ${base}, not an exception)`,
        details: { ...r, tolerancePct: tolerance },
      };
    const status = statusFor(r.exceptionImpact, sad, te);
    const judged = status === 'fail' ? `above TE ${fmt(te)}` : status === 'warning' ? `above SAD ${fmt(sad)}` : `within SAD ${fmt(sad)}`;
    const which =
      n === 1
        ? `difference ${pctText(r.tpaRates[0].rateDiffPct)}, outside the tolerance ${tolerance}%`
        : `${out.length} of ${n} rates outside the tolerance ${tolerance}% (${out.map((t) => `${fmtRate(t.rate)}: ${pctText(t.rateDiffPct)}`).join(', ')})`;
    return {
      check: FX_TESTING,
      name,
      status,
      diff: r.exceptionImpact,
      threshold: status === 'fail' ? te : sad,
      message: `${r.currency} (${what}): ${rateText} ${vs}: ${which}; value impact ${fmt(r.exceptionImpact)} ${base}, ${judged}`,
      details: { ...r, tolerancePct: tolerance },
    };
  };

  const finish = (): QaRec[] => {
    const total = { check: FX_TESTING, name: FX_TOTAL, threshold: null, diff: 0 };
    if (!holdings)
      return [
        { ...total, status: 'warning', message: 'Not performed: no holdings delivered', notPerformed: 'no holdings delivered', details: { performed: false } },
      ];
    const results = [...byCcy].sort(([a], [b]) => a.localeCompare(b)).map(([ccy, c]) => result(ccy, c));
    const items = results.map(currencyItem);
    const tested = results.filter((r) => !r.notPerformed);
    const notPerformed = results.filter((r) => r.notPerformed).map((r) => r.currency);
    const exceptionsOf = tested.filter((r) => r.tpaRates.some((t) => t.exception));
    const net = round(tested.reduce((s, r) => s.add(r.exceptionImpact), new Sum()).value);
    const gross = round(tested.reduce((s, r) => s.add(Math.abs(r.exceptionImpact)), new Sum()).value);
    const summary: FxTestingSummary = {
      performed: tested.length > 0 || foreign === 0,
      tolerancePct: tolerance,
      maxAgeBusinessDays: maxAge,
      holdings,
      foreignPositions: foreign,
      currencies: results,
      tested: tested.length,
      withinTolerance: tested.length - exceptionsOf.length,
      exceptions: exceptionsOf.length,
      notPerformedCurrencies: notPerformed,
      net,
      gross,
      pm,
      te,
      sad,
    };
    if (!foreign) {
      items.push({ ...total, status: 'pass', message: `No foreign-currency holdings: all ${holdings} holdings are in ${base}`, details: { ...summary } });
      return items;
    }
    const untested = notPerformed.length ? `; NOT PERFORMED for ${notPerformed.join(', ')}` : '';
    if (!tested.length) {
      const reason = `no currency could be tested against an independent rate dated at most ${maxAge} business days before the period end ${ctx.periodEnd} (${notPerformed.join(', ')})`;
      items.push({ ...total, status: 'warning', message: `Not performed: ${reason}`, notPerformed: reason, details: { ...summary } });
      return items;
    }
    const status = statusFor(net, sad, pm);
    items.push({
      ...total,
      status,
      diff: net,
      threshold: status === 'fail' ? pm : sad,
      message: `${tested.length} of ${results.length} currencies tested against independent rates (tolerance ${tolerance}%): ${summary.withinTolerance} within the tolerance, ${exceptionsOf.length} with exceptions; exceptions' net impact ${fmt(net)} ${base} (gross ${fmt(gross)}) vs SAD ${fmt(sad)} / PM ${fmt(pm)}${untested}`,
      details: { ...summary },
    });
    return items;
  };
  return { add, finish };
}

/** FX testing of a fund's holdings on their own (see the module's description). */
export function fxTesting(data: FundSdmData, ctx: CheckContext): Promise<QaRec[]> {
  return runPass(fxTestingPass(data, ctx), data.holdings);
}

/**
 * Test-only: every figure of a fund's work paper recomputed from its delivered rows (`delivered.ts`),
 * the fund request's materiality percentages and the independent FX rates, by the audit rules the
 * work paper documents (DOMAIN.md 2.4, 2.5), written here on their own: TB by account class, NAV
 * = assets - liabilities, PM / TE / SAD = % x NAV rounded to the cent, holdings by standard type,
 * derivatives against DERIVATIVES_ASSET + DERIVATIVES_LIABILITY, FX re-translation of each
 * foreign position at the independent rate (impact = value base - value local / rate), the shares
 * roll-forward per class, the schedule of unadjusted differences against SAD / TE / PM. Amounts
 * delivered with cents are summed in integer cents, so totals are exact.
 */
import type { Delivered, DeliveredRow, IndependentRate } from './delivered.js';
import { checkItems } from './expected-items.js';

/** Standard account -> class, for the accounts the fixtures' TPAs map to. */
export const ACCOUNT_CLASS: Record<string, 'asset' | 'liability' | 'equity' | 'income' | 'expense'> = {
  INVESTMENTS_AT_VALUE: 'asset',
  DERIVATIVES_ASSET: 'asset',
  CASH: 'asset',
  RECEIVABLES: 'asset',
  OTHER_ASSETS: 'asset',
  DERIVATIVES_LIABILITY: 'liability',
  PAYABLES: 'liability',
  OTHER_LIABILITIES: 'liability',
  CAPITAL: 'equity',
  DISTRIBUTABLE_EARNINGS: 'equity',
};

/** A check item as the Summary lists it. */
export interface ExpectedItem {
  check: string;
  name: string;
  status: 'PASS' | 'WARNING' | 'FAIL' | 'NOT PERFORMED';
  diff: number;
  threshold: number | null;
  file: string | null;
  line: number | string | null;
  /** Why not performed (the reason the schedule lists), else null. */
  notPerformed: string | null;
  /** A difference in money the schedule of unadjusted differences lists. */
  moneyDifference: boolean;
  /** The item's message with its figures (compared as the work paper words it). */
  message?: string;
}

/** FX re-translation of one currency. */
export interface ExpectedCurrency {
  currency: string;
  positions: number;
  rateMin: number;
  rateMax: number;
  weighted: number;
  rate: IndependentRate;
  local: number;
  baseTpa: number;
  baseIndependent: number;
  impact: number;
  byRate: Array<{ rate: number; positions: number; base: number; impact: number }>;
}

export interface FundTerms {
  periodEnd: string;
  pm: number;
  te: number;
  sad: number;
  /** external_valuations = Y */
  externalValuations: boolean;
  /** A rate dated more than this many days before the period end is stale (default 5). */
  fxMaxAgeDays?: number;
}

/** Whole days from a rate's date to the period end. */
export const ageDays = (date: string, periodEnd: string) => (Date.parse(periodEnd) - Date.parse(date)) / 86_400_000;

export const cents = (x: number) => Math.round(x * 100);
/** `1234567.891` -> `1,234,567.89`, as messages show amounts. */
export const fmt = (x: number, dp = 2) => x.toLocaleString('en-US', { minimumFractionDigits: dp, maximumFractionDigits: dp });
export const sumCents = (xs: number[]) => xs.reduce((a, x) => a + cents(x), 0) / 100;
export const round2 = (x: number) => {
  const r = (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-9)) / 100;
  return r === 0 ? 0 : r;
};
export const num = (r: DeliveredRow, k: string) => r.v[k] as number;
export const str = (r: DeliveredRow, k: string) => r.v[k] as string;

/** `a.csv` and `5-60` (or `a.csv; b.csv` and `5-60; 2-9`) for the rows of some SDM types. */
export function fileLines(...groups: DeliveredRow[][]): [string, string] {
  const files: Array<{ file: string; first: number; last: number }> = [];
  for (const rows of groups) {
    const group: typeof files = [];
    for (const r of rows) {
      const f = group.find((x) => x.file === r.file);
      if (f) {
        f.first = Math.min(f.first, r.line);
        f.last = Math.max(f.last, r.line);
      } else group.push({ file: r.file, first: r.line, last: r.line });
    }
    files.push(...group);
  }
  return [files.map((f) => f.file).join('; '), files.map((f) => (f.first === f.last ? String(f.first) : `${f.first}-${f.last}`)).join('; ')];
}

/** One share class: shares and amounts per standard activity, the computed closing and its difference. */
export interface ClassFigures {
  shareClass: string;
  shares: Record<string, number>;
  amounts: Record<string, number | null>;
  computed: number;
  diff: number;
  closingRow: DeliveredRow;
  navPerShare: number | undefined;
}

/** The whole work paper's figures, recomputed. */
export function expectedFigures(d: Delivered, terms: FundTerms, rates: Map<string, IndependentRate>) {
  const classOf = (r: DeliveredRow) => ACCOUNT_CLASS[str(r, 'standard_account') ?? ''] ?? null;
  const tbSum = (cls: string) => sumCents(d.trial_balance.filter((r) => classOf(r) === cls).map((r) => num(r, 'balance_base')));
  const assets = tbSum('asset');
  const liabilities = -tbSum('liability');
  const nav = round2(assets - liabilities);
  const equity = -tbSum('equity');
  const result = -round2(tbSum('income') + tbSum('expense'));
  const materiality = { pm: round2((terms.pm / 100) * nav), te: round2((terms.te / 100) * nav), sad: round2((terms.sad / 100) * nav) };

  const tbAccounts = (...targets: string[]) =>
    sumCents(d.trial_balance.filter((r) => targets.includes(str(r, 'standard_account'))).map((r) => num(r, 'balance_base')));
  const derivative = (h: DeliveredRow) => str(h, 'standard_instrument') === 'DERIVATIVE';
  const nonDerivatives = d.holdings.filter((h) => !derivative(h));
  const derivatives = d.holdings.filter(derivative);
  const holdingsTotal = sumCents(d.holdings.map((h) => num(h, 'market_value_base')));
  const byInstrument: Array<{ instrument: string; count: number; value: number }> = [];
  for (const h of d.holdings) {
    const k = str(h, 'standard_instrument') ?? '(unmapped)';
    let b = byInstrument.find((x) => x.instrument === k);
    if (!b) byInstrument.push((b = { instrument: k, count: 0, value: 0 }));
    b.count++;
    b.value += cents(num(h, 'market_value_base'));
  }
  for (const b of byInstrument) b.value /= 100;

  const tbTotal = sumCents(d.trial_balance.map((r) => num(r, 'balance_base')));
  const invHoldings = sumCents(nonDerivatives.map((h) => num(h, 'market_value_base')));
  const derHoldings = sumCents(derivatives.map((h) => num(h, 'market_value_base')));
  const tbInvestments = tbAccounts('INVESTMENTS_AT_VALUE');
  const tbDerivatives = tbAccounts('DERIVATIVES_ASSET', 'DERIVATIVES_LIABILITY');

  // share capital: per class, the roll-forward in shares and the closing NAV
  const classes = [...new Set(d.share_capital.map((r) => str(r, 'share_class')))].map((shareClass) => {
    const rows = d.share_capital.filter((r) => str(r, 'share_class') === shareClass);
    const of = (a: string) => rows.filter((r) => str(r, 'standard_activity') === a);
    const shares = (a: string) => of(a).reduce((s, r) => s + num(r, 'shares'), 0);
    const amount = (a: string) =>
      of(a).some((r) => r.v.amount_base !== null)
        ? sumCents(
            of(a)
              .filter((r) => r.v.amount_base !== null)
              .map((r) => num(r, 'amount_base')),
          )
        : null;
    const activities = ['OPENING', 'SUBSCRIPTION', 'SWITCH_IN', 'DISTRIBUTION_REINVESTED', 'REDEMPTION', 'SWITCH_OUT', 'CLOSING'];
    const s = Object.fromEntries(activities.map((a) => [a, Math.round(shares(a) * 1e6) / 1e6]));
    const a = Object.fromEntries(activities.map((x) => [x, amount(x)]));
    const computed = Math.round((s.OPENING + s.SUBSCRIPTION + s.SWITCH_IN + s.DISTRIBUTION_REINVESTED - s.REDEMPTION - s.SWITCH_OUT) * 1e6) / 1e6;
    const closing = of('CLOSING');
    const last = closing[closing.length - 1];
    const navPerShare = closing.find((r) => r.v.nav_per_share !== null)?.v.nav_per_share as number | undefined;
    const rollForward: ClassFigures = {
      shareClass,
      shares: s,
      amounts: a,
      computed,
      diff: Math.round((computed - s.CLOSING) * 1e6) / 1e6,
      closingRow: last,
      navPerShare,
    };
    return rollForward;
  });
  const capitalAccounts = round2(equity + result);
  const fx = fxRetranslation(d.holdings, rates);
  const items = checkItems({
    d,
    terms,
    nav,
    assets,
    liabilities,
    tbTotal,
    capitalAccounts,
    materiality,
    invHoldings,
    derHoldings,
    tbInvestments,
    tbDerivatives,
    nonDerivatives,
    derivatives,
    classes,
    fx,
  });

  return {
    nav,
    assets,
    liabilities,
    equity,
    result,
    tbTotal,
    materiality,
    holdingsTotal,
    byInstrument,
    invHoldings,
    derHoldings,
    tbInvestments,
    tbDerivatives,
    nonDerivatives,
    derivatives,
    classes,
    items,
    fx,
  };
}

/** FX re-translation of every foreign-currency holding at the independent rate (fund currency USD). */
export function fxRetranslation(holdings: DeliveredRow[], rates: Map<string, IndependentRate>) {
  const impacts: Array<{ h: DeliveredRow; impact: number; rate: IndependentRate }> = [];
  const untested: DeliveredRow[] = [];
  const currencies = new Map<string, { rows: DeliveredRow[]; impacts: number[]; rate: IndependentRate }>();
  for (const h of holdings) {
    const ccy = str(h, 'price_currency');
    if (!ccy || ccy === 'USD') continue;
    const rate = rates.get(ccy);
    if (!rate) {
      untested.push(h);
      continue;
    }
    const impact = num(h, 'market_value_base') - num(h, 'market_value_local') / rate.unitsPerUsd;
    impacts.push({ h, impact, rate });
    const c = currencies.get(ccy) ?? { rows: [], impacts: [], rate };
    c.rows.push(h);
    c.impacts.push(impact);
    currencies.set(ccy, c);
  }
  const byCurrency: ExpectedCurrency[] = [...currencies]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, c]) => {
      const fxs = c.rows.map((h) => num(h, 'fx_rate'));
      const absLocal = c.rows.reduce((s, h) => s + Math.abs(num(h, 'market_value_local')), 0);
      const absBase = c.rows.reduce((s, h) => s + Math.abs(num(h, 'market_value_base')), 0);
      const byRate = [...new Set(fxs)]
        .sort((a, b) => a - b)
        .map((rate) => {
          const idx = c.rows.map((h, i) => (num(h, 'fx_rate') === rate ? i : -1)).filter((i) => i >= 0);
          return {
            rate,
            positions: idx.length,
            base: sumCents(idx.map((i) => num(c.rows[i], 'market_value_base'))),
            impact: round2(idx.reduce((s, i) => s + c.impacts[i], 0)),
          };
        });
      return {
        currency,
        positions: c.rows.length,
        rateMin: Math.min(...fxs),
        rateMax: Math.max(...fxs),
        weighted: absLocal / absBase,
        rate: c.rate,
        local: sumCents(c.rows.map((h) => num(h, 'market_value_local'))),
        baseTpa: sumCents(c.rows.map((h) => num(h, 'market_value_base'))),
        baseIndependent: round2(c.rows.reduce((s, h) => s + num(h, 'market_value_local') / c.rate.unitsPerUsd, 0)),
        impact: round2(c.impacts.reduce((s, x) => s + x, 0)),
        byRate,
      };
    });
  const untestedCurrencies: Array<{ currency: string; positions: number; base: number }> = [];
  for (const h of untested) {
    const ccy = str(h, 'price_currency');
    let u = untestedCurrencies.find((x) => x.currency === ccy);
    if (!u) untestedCurrencies.push((u = { currency: ccy, positions: 0, base: 0 }));
    u.positions++;
    u.base += cents(num(h, 'market_value_base'));
  }
  for (const u of untestedCurrencies) u.base /= 100;
  const largest = [...impacts].sort((a, b) => Math.abs(b.impact) - Math.abs(a.impact) || a.h.line - b.h.line).slice(0, 25);
  return { impacts, untested, byCurrency, untestedCurrencies, largest, gross: round2(impacts.reduce((s, x) => s + Math.abs(x.impact), 0)) };
}

/** The schedule of unadjusted differences: each money difference judged against SAD / TE, the aggregate above SAD against PM. */
export function expectedSchedule(items: ExpectedItem[], m: { pm: number; te: number; sad: number }, incomplete = false) {
  const differences = items
    .filter((i) => i.moneyDifference && (i.check !== 'Price testing' || i.name === 'Price testing: total impact'))
    .map((i) => ({
      item: i,
      judgement:
        Math.abs(i.diff) <= m.sad
          ? 'Clearly trivial (at or below SAD)'
          : Math.abs(i.diff) > m.te
            ? 'Above TE: individually significant'
            : 'Above SAD: accumulated',
    }));
  const trivial = differences.filter((x) => x.judgement.startsWith('Clearly'));
  const above = differences.filter((x) => !x.judgement.startsWith('Clearly'));
  const gross = sumCents(above.map((x) => Math.abs(x.item.diff)));
  const notPerformed = items.filter((i) => i.status === 'NOT PERFORMED');
  const aboveTe = above.filter((x) => x.judgement.startsWith('Above TE')).length;
  let text =
    gross > m.pm
      ? `Material: the unadjusted differences above SAD total ${fmt(gross)}, more than PM ${fmt(m.pm)}; adjustments are required before the figures can be accepted`
      : above.length
        ? `Not material: the ${above.length} unadjusted difference(s) above SAD total ${fmt(gross)}, within PM ${fmt(m.pm)}${aboveTe ? `; ${aboveTe} above TE ${fmt(m.te)} to be discussed with the TPA` : ''}`
        : `No difference above SAD ${fmt(m.sad)}: every difference found is clearly trivial`;
  if (notPerformed.length) text += `; ${notPerformed.length} check item(s) NOT PERFORMED: no difference could be measured there`;
  if (incomplete) text = `Incomplete data: ${text}; the checks ran on incomplete data, so no conclusion can be signed`;
  return {
    differences,
    trivialNet: sumCents(trivial.map((x) => x.item.diff)),
    aboveNet: sumCents(above.map((x) => x.item.diff)),
    gross,
    conclusion: gross > m.pm ? 'MATERIAL' : 'NOT MATERIAL',
    notPerformed,
    /** The conclusion as the schedule words it. */
    text,
  };
}

/**
 * Test-only: every figure of a fund's work paper recomputed from its delivered rows (`delivered.ts`),
 * the fund request's materiality percentages and the independent FX rates, by the audit rules the
 * work paper documents (DOMAIN.md 2.4, 2.5), written here on their own: TB by account class, NAV
 * = assets - liabilities, PM / TE / SAD = % x NAV rounded to the cent, holdings by standard type,
 * derivatives against DERIVATIVES_ASSET + DERIVATIVES_LIABILITY, FX testing of each currency's
 * TPA rates against the independent rate (impact = value base - value local / rate), the shares
 * roll-forward per class, the schedule of unadjusted differences against SAD / TE / PM. Amounts
 * delivered with cents are summed in integer cents, so totals are exact.
 */
import type { Delivered, DeliveredRow, IndependentRate } from './delivered.js';
import { checkItems } from './expected-items.js';
import {
  ACCOUNT_CLASS,
  ageDays,
  ageText,
  businessDays,
  cents,
  type ClassFigures,
  type ExpectedCurrency,
  type ExpectedItem,
  fmt,
  type FundTerms,
  type FxTestingFigures,
  num,
  round2,
  str,
  sumCents,
} from './expected-values.js';

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
  const fx = fxTestingFigures(d.holdings, rates, terms);
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

/**
 * FX testing of every foreign-currency holding (fund currency USD): per currency, the rate of
 * each position (its delivered fx_rate) against the independent rate of the period end; a rate
 * more than the limit of business days old, or none, is NOT PERFORMED; each distinct TPA rate more
 * than the tolerance away from it is an exception, whose impact is its positions' base value -
 * local value / independent rate.
 */
export function fxTestingFigures(holdings: DeliveredRow[], rates: Map<string, IndependentRate>, terms: FundTerms): FxTestingFigures {
  const tolerance = terms.fxTolerancePct ?? 0.5;
  const limit = terms.fxMaxAgeBusinessDays ?? 5;
  const byCcy = new Map<string, DeliveredRow[]>();
  for (const h of holdings) {
    const ccy = str(h, 'price_currency');
    if (!ccy || ccy === 'USD') continue;
    byCcy.set(ccy, [...(byCcy.get(ccy) ?? []), h]);
  }
  const currencies: ExpectedCurrency[] = [...byCcy]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, rows]) => {
      const fxs = rows.map((h) => num(h, 'fx_rate'));
      const absLocal = rows.reduce((s, h) => s + Math.abs(num(h, 'market_value_local')), 0);
      const absBase = rows.reduce((s, h) => s + Math.abs(num(h, 'market_value_base')), 0);
      const rate = rates.get(currency) ?? null;
      const out: ExpectedCurrency = {
        currency,
        positions: rows.length,
        rateMin: Math.min(...fxs),
        rateMax: Math.max(...fxs),
        weighted: absLocal / absBase,
        rate,
        ageDays: rate ? ageDays(rate.date, terms.periodEnd) : null,
        ageBusinessDays: rate ? businessDays(rate.date, terms.periodEnd) : null,
        local: sumCents(rows.map((h) => num(h, 'market_value_local'))),
        baseTpa: sumCents(rows.map((h) => num(h, 'market_value_base'))),
        baseIndependent: null,
        exceptionImpact: 0,
        byRate: [],
        notPerformed: null,
      };
      if (!rate) {
        out.notPerformed = `no independent ${currency} rate per USD dated on or before the period end ${terms.periodEnd}`;
        return out;
      }
      if (businessDays(rate.date, terms.periodEnd) > limit) {
        out.notPerformed = `the latest independent ${currency} rate, ${Number(rate.unitsPerUsd.toPrecision(12))} (${rate.source}), is ${ageText(rate.date, terms.periodEnd, limit)}: too old to conclude on`;
        return out;
      }
      const x = rate.unitsPerUsd;
      out.byRate = [...new Set(fxs)]
        .sort((a, b) => a - b)
        .map((r) => {
          const of = rows.filter((h) => num(h, 'fx_rate') === r);
          const diffPct = ((r - x) / x) * 100;
          const impact = of.reduce((s, h) => s + num(h, 'market_value_base') - num(h, 'market_value_local') / x, 0);
          return {
            rate: r,
            positions: of.length,
            base: sumCents(of.map((h) => num(h, 'market_value_base'))),
            diffPct,
            exception: Math.abs(diffPct) > tolerance,
            impact,
          };
        });
      out.baseIndependent = round2(rows.reduce((s, h) => s + num(h, 'market_value_local') / x, 0));
      out.exceptionImpact = round2(out.byRate.filter((r) => r.exception).reduce((s, r) => s + r.impact, 0));
      return out;
    });
  return { currencies, tolerance, limit, foreign: [...byCcy.values()].flat().length };
}

/** The schedule of unadjusted differences: each money difference judged against SAD / TE, the aggregate above SAD against PM. */
export function expectedSchedule(items: ExpectedItem[], m: { pm: number; te: number; sad: number }, incomplete = false) {
  const differences = items
    .filter(
      (i) =>
        i.moneyDifference &&
        (i.check !== 'Price testing' || i.name === 'Price testing: total impact') &&
        (i.check !== 'FX testing' || i.name === 'FX testing: total impact'),
    )
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

/**
 * Test-only: the check items the work paper must list, in order, each with its status, difference,
 * threshold, file and line(s) and its message's figures, judged independently from the recomputed
 * figures: a difference above TE fails, above SAD warns; price testing without independent prices
 * is NOT PERFORMED; FX testing judges each currency's exceptions (TPA rates outside the tolerance)
 * against SAD and TE and their total against SAD and PM, a currency without an independent rate of
 * at most 5 business days before the period end NOT PERFORMED; a security
 * held again with another position is a warning naming the earlier lines.
 */
import type { Delivered, DeliveredRow } from './delivered.js';
import { type ClassFigures, type ExpectedItem, type FundTerms, type FxTestingFigures, fileLines, fmt, num, round2, str, sumCents } from './expected-values.js';

export interface ItemFigures {
  d: Delivered;
  terms: FundTerms;
  nav: number;
  assets: number;
  liabilities: number;
  tbTotal: number;
  capitalAccounts: number;
  materiality: { pm: number; te: number; sad: number };
  invHoldings: number;
  derHoldings: number;
  tbInvestments: number;
  tbDerivatives: number;
  nonDerivatives: DeliveredRow[];
  derivatives: DeliveredRow[];
  classes: ClassFigures[];
  fx: FxTestingFigures;
}

/** Every check item, in the order of the checks. */
export function checkItems(x: ItemFigures): ExpectedItem[] {
  const { d, terms, nav, classes, fx } = x;
  const { pm, te, sad } = x.materiality;
  const judge = (diff: number) => (Math.abs(diff) > te ? 'FAIL' : Math.abs(diff) > sad ? 'WARNING' : 'PASS');
  const threshold = (status: string) => (status === 'FAIL' ? te : sad);
  const verdict = (diff: number) => (judge(diff) === 'PASS' ? 'agree' : `differ by ${fmt(diff)} USD`);
  const items: ExpectedItem[] = [];
  const item = (i: Omit<ExpectedItem, 'notPerformed' | 'moneyDifference'> & Partial<Pick<ExpectedItem, 'notPerformed' | 'moneyDifference'>>) =>
    items.push({ notPerformed: null, moneyDifference: i.status !== 'NOT PERFORMED' && Math.abs(i.diff) >= 0.005, ...i });
  const compared = (check: string, name: string, diff: number, file: string | null, line: number | string | null, message: string) =>
    item({ check, name, status: judge(diff), diff, threshold: threshold(judge(diff)), file, line, message });

  // trial balance
  const [tbFile, tbLines] = fileLines(d.trial_balance);
  const debits = sumCents(d.trial_balance.filter((r) => num(r, 'balance_base') > 0).map((r) => num(r, 'balance_base')));
  const credits = -sumCents(d.trial_balance.filter((r) => num(r, 'balance_base') < 0).map((r) => num(r, 'balance_base')));
  const tbStatus = x.tbTotal === 0 ? 'PASS' : Math.abs(x.tbTotal) > sad ? 'FAIL' : 'WARNING';
  item({
    check: 'Trial balance',
    name: 'Trial balance sums to zero',
    status: tbStatus,
    diff: x.tbTotal,
    threshold: sad,
    file: tbFile,
    line: tbLines,
    message:
      tbStatus === 'PASS'
        ? `Debits ${fmt(debits)} = credits ${fmt(credits)} (${d.trial_balance.length} accounts)`
        : `TB does not balance: debits ${fmt(debits)} - credits ${fmt(credits)} = ${fmt(x.tbTotal)} USD, ${tbStatus === 'FAIL' ? 'above' : 'within'} SAD ${fmt(sad)}`,
  });

  // investments reconciliation
  const [hFile, hLines] = fileLines(d.holdings, d.trial_balance);
  const rec = (name: string, what: string, positions: number, holdings: number, accounts: string, tb: number) => {
    const diff = round2(holdings - tb);
    const status = judge(diff);
    const says = status === 'PASS' ? 'agree' : `differ by ${fmt(diff)} USD (${status === 'FAIL' ? `above TE ${fmt(te)}` : `above SAD ${fmt(sad)}`})`;
    compared(
      'Investments reconciliation',
      name,
      diff,
      hFile,
      hLines,
      `${what} (${positions} positions) ${fmt(holdings)} vs TB ${accounts} ${fmt(tb)}: ${says}`,
    );
  };
  rec('Investments vs INVESTMENTS_AT_VALUE', 'Non-derivative holdings', x.nonDerivatives.length, x.invHoldings, 'INVESTMENTS_AT_VALUE', x.tbInvestments);
  rec(
    'Derivatives vs DERIVATIVES_ASSET + DERIVATIVES_LIABILITY',
    'Derivative holdings',
    x.derivatives.length,
    x.derHoldings,
    'DERIVATIVES_ASSET + DERIVATIVES_LIABILITY',
    x.tbDerivatives,
  );

  // NAV
  const navFromTb = `NAV from TB ${fmt(nav)} (assets ${fmt(x.assets)} - liabilities ${fmt(x.liabilities)})`;
  if (classes.length) {
    const scNav = sumCents(classes.map((c) => round2(c.shares.CLOSING * (c.navPerShare ?? 0))));
    const one = classes.length === 1 ? classes[0].closingRow : null;
    const basis = classes.map((c) => `${c.shareClass}: ${fmt(c.shares.CLOSING, 3)} x ${c.navPerShare}`).join('; ');
    const diff = round2(nav - scNav);
    compared(
      'NAV',
      'NAV vs share capital',
      diff,
      one?.file ?? null,
      one?.line ?? null,
      `${navFromTb} vs share capital (${basis}) ${fmt(scNav)}: ${verdict(diff)}`,
    );
  }
  const [ncFile, ncLines] = fileLines(d.trial_balance, d.share_capital);
  const navCap = round2(nav - x.capitalAccounts);
  compared(
    'NAV',
    'NAV vs TB capital accounts',
    navCap,
    ncFile,
    ncLines,
    `${navFromTb} vs capital accounts (equity + result) ${fmt(x.capitalAccounts)}: ${verdict(navCap)}`,
  );

  // price testing: the TPA's own prices are no evidence, and no other price is delivered
  const [ptFile, ptLines] = fileLines(d.holdings, d.prices);
  const ptReason = terms.externalValuations
    ? `no independent prices (price sources ${[...new Set(d.prices.map((p) => str(p, 'price_source').trim().toLowerCase()))].join(', ') || 'none'} are the TPA's own)`
    : 'the fund has no external valuations (external_valuations = N)';
  item({
    check: 'Price testing',
    name: 'Price testing',
    status: 'NOT PERFORMED',
    diff: 0,
    threshold: null,
    file: ptFile,
    line: ptLines,
    notPerformed: ptReason,
    message: `Not performed: ${ptReason}`,
  });

  // FX testing: each currency's TPA rates against the independent rate of the period end
  const [fxFile, fxLines] = fileLines(d.holdings);
  for (const c of fx.currencies) {
    const name = `FX ${c.currency}`;
    if (c.notPerformed) {
      item({
        check: 'FX testing',
        name,
        status: 'NOT PERFORMED',
        diff: 0,
        threshold: null,
        file: fxFile,
        line: fxLines,
        notPerformed: c.notPerformed,
        message: `Not performed: ${c.currency} (${c.positions} position(s), ${fmt(c.baseTpa)} USD): ${c.notPerformed}`,
      });
      continue;
    }
    const exceptions = c.byRate.some((r) => r.exception);
    const status = exceptions ? judge(c.exceptionImpact) : 'PASS';
    item({
      check: 'FX testing',
      name,
      status,
      diff: exceptions ? c.exceptionImpact : 0,
      threshold: exceptions ? threshold(status) : null,
      file: fxFile,
      line: fxLines,
    });
  }
  const tested = fx.currencies.filter((c) => !c.notPerformed);
  const untested = fx.currencies.filter((c) => c.notPerformed).map((c) => c.currency);
  const withExceptions = tested.filter((c) => c.byRate.some((r) => r.exception));
  const fxNet = round2(tested.reduce((s, c) => s + c.exceptionImpact, 0));
  const fxGross = round2(tested.reduce((s, c) => s + Math.abs(c.exceptionImpact), 0));
  const fxTotal = { check: 'FX testing', name: 'FX testing: total impact', file: fxFile, line: fxLines } as const;
  if (!fx.foreign)
    item({ ...fxTotal, status: 'PASS', diff: 0, threshold: null, message: `No foreign-currency holdings: all ${d.holdings.length} holdings are in USD` });
  else if (!tested.length) {
    const reason = `no currency could be tested against an independent rate dated at most ${fx.limit} business days before the period end ${terms.periodEnd} (${untested.join(', ')})`;
    item({ ...fxTotal, status: 'NOT PERFORMED', diff: 0, threshold: null, notPerformed: reason, message: `Not performed: ${reason}` });
  } else {
    const status = Math.abs(fxNet) > pm ? 'FAIL' : Math.abs(fxNet) > sad ? 'WARNING' : 'PASS';
    item({
      ...fxTotal,
      status,
      diff: fxNet,
      threshold: status === 'FAIL' ? pm : sad,
      message: `${tested.length} of ${fx.currencies.length} currencies tested against independent rates (tolerance ${fx.tolerance}%): ${tested.length - withExceptions.length} within the tolerance, ${withExceptions.length} with exceptions; exceptions' net impact ${fmt(fxNet)} USD (gross ${fmt(fxGross)}) vs SAD ${fmt(sad)} / PM ${fmt(pm)}${untested.length ? `; NOT PERFORMED for ${untested.join(', ')}` : ''}`,
    });
  }

  // share capital roll-forward
  for (const c of classes) {
    const s = c.shares;
    const status = Math.abs(c.diff) > 0.001 ? 'FAIL' : 'PASS';
    item({
      check: 'Share capital roll-forward',
      name: `Shares roll-forward ${c.shareClass}`,
      status,
      diff: c.diff,
      threshold: 0.001,
      file: c.closingRow.file,
      line: c.closingRow.line,
      moneyDifference: false,
      message: `${c.shareClass}: opening ${fmt(s.OPENING, 3)} + subscriptions ${fmt(s.SUBSCRIPTION, 3)} + switches in ${fmt(s.SWITCH_IN, 3)} + reinvested ${fmt(s.DISTRIBUTION_REINVESTED, 3)} - redemptions ${fmt(s.REDEMPTION, 3)} - switches out ${fmt(s.SWITCH_OUT, 3)} = ${fmt(c.computed, 3)} vs closing ${fmt(s.CLOSING, 3)} shares${status === 'PASS' ? '' : `: off by ${fmt(c.diff, 3)} shares`}`,
    });
  }
  if (classes.length) {
    const [scFile, scLines] = fileLines(d.share_capital);
    const closing = sumCents(classes.map((c) => c.amounts.CLOSING ?? round2(c.shares.CLOSING * (c.navPerShare ?? 0))));
    const diff = round2(closing - x.capitalAccounts);
    compared(
      'Share capital roll-forward',
      'Closing capital vs TB capital accounts',
      diff,
      scFile,
      scLines,
      `Closing share capital ${fmt(closing)} vs TB capital accounts (equity + result) ${fmt(x.capitalAccounts)}: ${verdict(diff)}`,
    );
  }

  items.push(...holdingsIntegrity(d, sad));
  return items;
}

/** A security held again with another position is a warning naming the earlier lines; none: one pass item. */
function holdingsIntegrity(d: Delivered, sad: number): ExpectedItem[] {
  const seen = new Map<string, number[]>();
  const out: ExpectedItem[] = [];
  const base = { check: 'Holdings integrity', diff: 0, threshold: sad, notPerformed: null, moneyDifference: false } as const;
  for (const h of d.holdings) {
    const id = str(h, 'security_id').toUpperCase();
    const lines = seen.get(id);
    if (!lines) {
      seen.set(id, [h.line]);
      continue;
    }
    out.push({
      ...base,
      name: str(h, 'security_id'),
      status: 'WARNING',
      file: h.file,
      line: h.line,
      message: `${str(h, 'security_name')}: security also held on line(s) ${lines.join(', ')} with a different position (separate lots or long / short legs): confirm it is not double counted`,
    });
    lines.push(h.line);
  }
  if (out.length) return out;
  // bonds are priced per 100 of nominal: quantity x price / 100 is the local value
  const per100 = d.holdings.filter((h) => {
    const qp = num(h, 'quantity') * num(h, 'price');
    return Math.abs(qp / 100 - num(h, 'market_value_local')) < Math.abs(qp - num(h, 'market_value_local'));
  }).length;
  const [file, line] = fileLines(d.holdings);
  const n = d.holdings.length;
  return [
    {
      ...base,
      name: 'All holdings',
      status: 'PASS',
      file,
      line,
      message: `${n} holdings: quantity x price x fx = market value within rounding (${per100} priced per 100 of nominal, ${n - per100} per unit), no duplicate ids, ISIN / CUSIP check digits valid`,
    },
  ];
}

/**
 * Test-only: the rows each work-paper sheet must show, built from the independently recomputed
 * figures (`expected.ts`) and the delivered rows: Summary, Trial balance, Holdings, Investments
 * reconciliation, Price testing, FX testing, Capital roll-forward, Unadjusted differences, Exceptions.
 * Messages are compared as worded, with their recomputed figures; fixed explanatory texts are skipped (`ANY`).
 */
import type { Delivered, DeliveredRow } from './delivered.js';
import { expectedFigures, expectedSchedule } from './expected.js';
import { ACCOUNT_CLASS, ageText, businessDays, type ExpectedItem, type FundTerms } from './expected-values.js';
import { ANY, exact, near, type Expected } from './sheets.js';

/** A mapping version as the work paper names it. */
export interface MappingVersion {
  type: string;
  description: string;
  id: number;
  version: number;
  kind: string;
  sha256: string;
}

/** An unmapped code a standardization reported, as the Exceptions list it first. */
export interface UnmappedCode {
  code: string;
  file: string;
  line: number;
  column: string;
}

export interface FundSheetsInput {
  delivered: Delivered;
  terms: FundTerms;
  rates: Parameters<typeof expectedFigures>[2];
  mappings: MappingVersion[];
  /** Unmapped codes of an Invalid standardization (none: Valid). */
  unmapped?: UnmappedCode[];
}

const v = (r: DeliveredRow, k: string) => r.v[k] ?? null;
const status = (i: ExpectedItem) => i.status;
const source = (i: ExpectedItem): Expected[] => [i.file, i.line];
/** An item's Difference cell: empty when not performed (nothing was measured). */
const difference = (i: ExpectedItem) => (i.status === 'NOT PERFORMED' ? null : i.diff);
/** An item's message where its figures were recomputed, else not compared. */
const message = (i: ExpectedItem): Expected => i.message ?? ANY;

/** Every expected row of every sheet. */
export function expectedSheets(input: FundSheetsInput) {
  const { delivered: d, terms, mappings } = input;
  const f = expectedFigures(d, terms, input.rates);
  const maxAge = terms.fxMaxAgeBusinessDays ?? 5;
  const { pm, te, sad } = f.materiality;
  const incomplete = (input.unmapped ?? []).length > 0;
  const schedule = expectedSchedule(f.items, f.materiality, incomplete);
  // a check not performed on these deliveries is a warning (price testing without evidence), counted with the warnings
  const counts = { pass: 0, warning: 0, fail: 0, notPerformed: 0 };
  for (const i of f.items) {
    if (i.status === 'NOT PERFORMED') counts.notPerformed++;
    counts[i.status === 'NOT PERFORMED' ? 'warning' : (i.status.toLowerCase() as 'pass' | 'warning' | 'fail')]++;
  }
  const worst = f.items.some((i) => i.status === 'FAIL') ? 'FAIL' : f.items.some((i) => i.status !== 'PASS') ? 'WARNING' : 'PASS';
  const mapping = (type: string) => mappings.find((m) => m.type === type);
  const named = (m: MappingVersion | undefined) => (m ? `${m.description} (id ${m.id}) v${m.version}` : '(not recorded)');

  const trialBalance: Expected[][] = d.trial_balance.map((r) => [
    v(r, 'account_code'),
    v(r, 'account_name'),
    v(r, 'standard_account') ?? '(unmapped)',
    ACCOUNT_CLASS[v(r, 'standard_account') as string] ?? '',
    v(r, 'currency'),
    v(r, 'balance_local'),
    v(r, 'balance_base'),
    r.file,
    r.line,
  ]);
  const tbTotals: Array<[string, number]> = [
    ['Total assets', f.assets],
    ['Total liabilities', f.liabilities],
    ['NAV (assets - liabilities)', f.nav],
    ['Equity (capital accounts)', f.equity],
    ['Income less expenses', f.result],
    ['Sum of all balances (should be 0)', f.tbTotal],
  ];

  const rateOf = (h: DeliveredRow) => input.rates.get(String(v(h, 'price_currency')));
  const holdings: Expected[][] = d.holdings.map((h) => {
    const foreign = v(h, 'price_currency') !== 'USD';
    const rate = foreign ? rateOf(h) : undefined;
    const evidence: Expected[] = terms.externalValuations
      ? [
          null,
          null,
          'no independent price',
          rate ? near(rate.unitsPerUsd) : null,
          rate?.date ?? null,
          rate?.source ?? null,
          !foreign
            ? 'fund currency'
            : !rate
              ? 'NOT PERFORMED: no independent rate on or before the period end'
              : businessDays(rate.date, terms.periodEnd) > maxAge
                ? `NOT PERFORMED: rate ${ageText(rate.date, terms.periodEnd, maxAge)}`
                : `current: ${ageText(rate.date, terms.periodEnd, maxAge)}`,
        ]
      : [null, null, null, null, null, null, null];
    return [
      v(h, 'security_id'),
      v(h, 'id_type'),
      v(h, 'security_name'),
      v(h, 'instrument_type'),
      v(h, 'standard_instrument') ?? '(unmapped)',
      exact(v(h, 'quantity') as number),
      exact(v(h, 'price') as number),
      v(h, 'price_currency'),
      exact(v(h, 'fx_rate') as number),
      // the TPA's rate date and source: only for a base value converted with the TPA's FX table
      null,
      null,
      v(h, 'market_value_local'),
      v(h, 'market_value_base'),
      v(h, 'cost_base'),
      v(h, 'accrued_income_base'),
      v(h, 'country'),
      v(h, 'as_of'),
      h.file,
      h.line,
      `instrument_mapping ${named(mapping('instrument_mapping'))}: '${v(h, 'instrument_type')}' -> ${v(h, 'standard_instrument') ?? '(unmapped)'}; file_layout ${named(mapping('file_layout'))}: holdings columns`,
      ...evidence,
    ];
  });
  const holdingsTotal: Expected[] = [
    `Total: ${d.holdings.length} position(s)`,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    f.holdingsTotal,
  ];

  const checkRows: Expected[][] = f.items.map((i) => [i.check, i.name, null, null, status(i), difference(i), i.threshold, message(i), ...source(i)]);
  const exceptions: Expected[][] = [
    ...(input.unmapped ?? []).map((u): Expected[] => [
      'Standardization',
      `Unmapped code ${u.code}`,
      'INCOMPLETE DATA',
      null,
      null,
      ANY,
      u.file,
      u.line,
      u.column,
    ]),
    ...f.items.filter((i) => i.status !== 'PASS').map((i): Expected[] => [i.check, i.name, status(i), difference(i), i.threshold, message(i), ...source(i)]),
  ];
  const nav = fileLinesOf(f.items, 'Trial balance');
  const summary = {
    fields: [
      ['Period end', terms.periodEnd],
      ['Currency', 'USD'],
      ['Overall status', incomplete ? 'Incomplete data' : worst],
      [
        'Items passed / warnings / failed',
        `${counts.pass} / ${counts.warning} / ${counts.fail}${counts.notPerformed ? `, of which ${counts.notPerformed} not performed` : ''}`,
      ],
      ['Standardization', incomplete ? 'Invalid' : 'Valid'],
    ] as Array<[string, string]>,
    nav: ['NAV', f.nav, null, null, null, null, null, ANY, nav.file, nav.line] as Expected[],
    holdings: ['Holdings', `${d.holdings.length} position(s)`, null, f.holdingsTotal, null, null, null, ANY, ...holdingsSource(d)] as Expected[],
    mappings: [...mappings]
      .sort((a, b) => a.type.localeCompare(b.type))
      .map((m): Expected[] => [m.type, m.description, m.version, null, m.kind, null, null, `mapping id ${m.id}, version ${m.version}, sha256 ${m.sha256}`]),
    materiality: [
      ['Planning materiality (PM)', null, near(terms.pm / 100), pm],
      ['Tolerable error (TE)', null, near(terms.te / 100), te],
      ['Summary of audit differences (SAD)', null, near(terms.sad / 100), sad],
      [
        'Unadjusted differences above SAD (absolute)',
        `${schedule.differences.length} difference(s) found`,
        near(f.nav ? schedule.gross / Math.abs(f.nav) : 0),
        schedule.gross,
        incomplete ? 'INCOMPLETE DATA' : schedule.conclusion,
        null,
        pm,
        `${schedule.text} (sheet Unadjusted differences; ${pm ? `${((schedule.gross / pm) * 100).toFixed(1)}% of PM` : 'PM is nil'})`,
      ],
    ] as Expected[][],
    checks: checkRows,
  };

  const investments = {
    items: f.items
      .filter((i) => i.check === 'Investments reconciliation')
      .map((i, n): Expected[] => [
        i.name,
        n === 0 ? f.nonDerivatives.length : f.derivatives.length,
        n === 0 ? f.invHoldings : f.derHoldings,
        n === 0 ? f.tbInvestments : f.tbDerivatives,
        i.diff,
        i.threshold,
        status(i),
        message(i),
      ]),
    byInstrument: [
      ...f.byInstrument.map((b): Expected[] => [b.instrument, b.count, b.value]),
      ['Total holdings', d.holdings.length, f.holdingsTotal],
    ] as Expected[][],
    accounts: d.trial_balance
      .filter((r) => ['INVESTMENTS_AT_VALUE', 'DERIVATIVES_ASSET', 'DERIVATIVES_LIABILITY'].includes(v(r, 'standard_account') as string))
      .map((r): Expected[] => [v(r, 'account_name') ?? v(r, 'account_code'), v(r, 'account_code'), v(r, 'standard_account'), v(r, 'balance_base')]),
  };

  const priceTesting = {
    items: f.items.filter((i) => i.check === 'Price testing').map((i): Expected[] => [i.name, status(i), 'USD', difference(i), i.threshold, message(i)]),
  };

  const fx = f.fx;
  const pct = (x: number | null) => (x === null ? null : near(x / 100));
  const fxTesting = {
    items: f.items
      .filter((i) => i.check === 'FX testing')
      .map((i): Expected[] => [
        i.name,
        status(i),
        i.name.startsWith('FX ') && i.name.length === 6 ? i.name.slice(3) : 'USD',
        difference(i),
        i.threshold,
        message(i),
      ]),
    currencies: fx.currencies.map((c): Expected[] => [
      c.currency,
      c.positions,
      exact(c.rateMin),
      exact(c.rateMax),
      near(c.weighted),
      null,
      c.notPerformed ? 'NOT PERFORMED' : c.byRate.some((r) => r.exception) ? 'EXCEPTION' : 'within tolerance',
      'holdings fx_rate',
      c.rate ? near(c.rate.unitsPerUsd) : null,
      c.rate?.date ?? null,
      c.rate?.source ?? null,
      c.ageDays,
      c.ageBusinessDays,
      c.notPerformed || !c.rate ? null : pct(((c.weighted - c.rate.unitsPerUsd) / c.rate.unitsPerUsd) * 100),
      c.local,
      c.baseTpa,
      c.baseIndependent,
      c.notPerformed ? null : c.exceptionImpact,
      c.notPerformed,
    ]),
    byRate: fx.currencies.flatMap((c) =>
      c.byRate.map((r): Expected[] => [
        c.currency,
        r.positions,
        exact(r.rate),
        near(c.rate!.unitsPerUsd),
        near(r.diffPct / 100),
        r.base,
        r.exception ? 'yes' : 'no (within tolerance)',
        r.impact,
      ]),
    ),
    tolerance: fx.tolerance,
  };

  const capital = {
    shares: f.classes.map((c): Expected[] => [
      c.shareClass,
      c.shares.OPENING,
      c.shares.SUBSCRIPTION,
      c.shares.SWITCH_IN,
      c.shares.DISTRIBUTION_REINVESTED,
      c.shares.REDEMPTION,
      c.shares.SWITCH_OUT,
      c.computed,
      c.shares.CLOSING,
      c.diff,
      Math.abs(c.diff) > 0.001 ? 'FAIL' : 'PASS',
    ]),
    amounts: f.classes.map((c): Expected[] => [
      c.shareClass,
      c.amounts.OPENING,
      c.amounts.SUBSCRIPTION,
      c.amounts.SWITCH_IN,
      c.amounts.DISTRIBUTION_REINVESTED,
      c.amounts.REDEMPTION,
      c.amounts.SWITCH_OUT,
      null,
      c.amounts.CLOSING,
    ]),
    comparisons: f.items
      .filter((i) => i.check === 'Share capital roll-forward')
      .map((i): Expected[] => [i.name, difference(i), i.threshold, null, null, null, null, null, null, null, status(i), message(i)]),
  };

  const unadjusted = {
    differences: schedule.differences.length
      ? schedule.differences.map(({ item: i, judgement }): Expected[] => [i.check, i.name, i.diff, Math.abs(i.diff), judgement, message(i), ...source(i)])
      : [['No difference in money was found by the checks']],
    materiality: [
      ['Summary of audit differences (SAD): clearly trivial at or below', null, sad],
      ['Tolerable error (TE)', null, te],
      ['Planning materiality (PM)', null, pm],
    ] as Expected[][],
    totals: [
      ['Clearly trivial differences (net)', null, schedule.trivialNet],
      ['Differences above SAD (net)', null, schedule.aboveNet],
      ['Differences above SAD (absolute): compared with PM', null, schedule.gross],
      ['Conclusion', incomplete ? 'INCOMPLETE DATA' : schedule.conclusion, null, null, null, schedule.text],
    ] as Expected[][],
    notPerformed: schedule.notPerformed.map((i): Expected[] => [i.check, i.name, null, null, null, i.notPerformed, ...source(i)]),
  };

  return {
    figures: f,
    schedule,
    summary,
    trialBalance,
    tbTotals,
    holdings,
    holdingsTotal,
    investments,
    priceTesting,
    fxTesting,
    capital,
    unadjusted,
    exceptions,
  };
}

/** The File and Line cells of the NAV row: the trial balance's, as its TB item names them. */
function fileLinesOf(items: ExpectedItem[], check: string): { file: string | null; line: number | string | null } {
  const i = items.find((x) => x.check === check);
  return { file: i?.file ?? null, line: i?.line ?? null };
}

/** The File and Line cells of the Holdings row of the Summary. */
function holdingsSource(d: Delivered): Expected[] {
  const lines = d.holdings.map((h) => h.line);
  return d.holdings.length ? [d.holdings[0].file, `${Math.min(...lines)}-${Math.max(...lines)}`] : [null, null];
}

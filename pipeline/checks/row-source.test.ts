/**
 * The checks read holdings, transactions and prices as row sources (a chunk at a time, any number
 * of passes, nothing indexed) and limit their items as they go: their results equal those over
 * arrays, and the item limit keeps what the listing rule says.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmArrays, FundSdmData, QaRec, RowSource } from '../sdm/rows.js';
import { ItemLimit, ITEMS_NOT_LISTED, worst, type CheckContext } from './common.js';
import { loadFxCsv } from './fx.js';
import { runChecks } from './index.js';
import { materiality, navFromTrialBalance } from './materiality.js';
import { FIXTURES, loadCsvTpa } from '../testing/check-data.js';

/** Rows that can only be read in chunks (each pass gives fresh copies, as rows read back from a database). */
class OnlyIterable<T> implements RowSource<T> {
  passes = 0;
  constructor(
    private readonly rows: T[],
    private readonly perChunk = 333,
  ) {}
  get length() {
    return this.rows.length;
  }
  async *[Symbol.asyncIterator]() {
    this.passes++;
    for (let i = 0; i < this.rows.length; i += this.perChunk) yield structuredClone(this.rows.slice(i, i + this.perChunk));
  }
}

const asSources = (d: FundSdmArrays) => ({
  ...d,
  holdings: new OnlyIterable(d.holdings),
  transactions: new OnlyIterable(d.transactions),
  prices: new OnlyIterable(d.prices),
});

function contextFor(data: FundSdmData, over: Partial<CheckContext> = {}): CheckContext {
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  return {
    fundCode: 'S000013795',
    periodEnd: '2023-03-31',
    currency: 'USD',
    nav,
    materiality: materiality({ nav, pm: 1, te: 0.75, sad: 0.05 }),
    fxRates: loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2023-03-31.csv')),
    externalValuations: true,
    accountClasses: STANDARD_ACCOUNTS,
    ...over,
  };
}

/** The listing rule, as a whole list: all when at most `max`, else the first `max - 1` by (fail, warning, pass; order) in order, and a summary. */
function reference(check: string, items: QaRec[], max: number): QaRec[] {
  if (items.length <= max) return items;
  const rank = { fail: 0, warning: 1, pass: 2 } as const;
  const sorted = items.map((it, i) => ({ it, i })).sort((a, b) => rank[a.it.status] - rank[b.it.status] || a.i - b.i);
  const kept = sorted
    .slice(0, max - 1)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.it);
  const rest = sorted.slice(max - 1).map((x) => x.it);
  const counts = { pass: 0, warning: 0, fail: 0 };
  for (const r of rest) counts[r.status]++;
  kept.push({
    check,
    name: ITEMS_NOT_LISTED,
    status: worst(rest.map((r) => r.status)),
    diff: 0,
    threshold: null,
    message: `${rest.length} more item(s) not listed (${counts.fail} fail, ${counts.warning} warning, ${counts.pass} pass): limit of ${max} items per check`,
    details: { omitted: rest.length, ...counts, limit: max },
  });
  return kept;
}

describe('ItemLimit', () => {
  it('keeps what the listing rule keeps, whatever the order and mix of statuses', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const statuses = ['pass', 'warning', 'fail'] as const;
    for (let run = 0; run < 300; run++) {
      const n = Math.floor(random() * 40);
      const max = 2 + Math.floor(random() * 12);
      const items: QaRec[] = Array.from({ length: n }, (_, i) => ({
        check: 'c',
        name: `item ${i}`,
        status: statuses[Math.floor(random() * 3)],
        diff: i,
        threshold: null,
        message: '',
      }));
      const limit = new ItemLimit('c', max);
      for (const it of items) limit.add(it);
      expect(limit.items(), `run ${run}: ${n} items, max ${max}`).toEqual(reference('c', items, max));
      expect(limit.count).toBe(n);
    }
  });
});

describe('checks over row sources', () => {
  it('give the same items on the real Goldman Sachs data as over arrays', async () => {
    const gs = loadCsvTpa('meridian_fund_services');
    const sources = asSources(gs);
    expect(await runChecks(sources, contextFor(sources))).toEqual(await runChecks(gs, contextFor(gs)));
    expect(sources.holdings.passes).toBeGreaterThan(0);
  });

  it('list at most the item limit when every holding has a problem, and say how many were left out', async () => {
    const gs = loadCsvTpa('meridian_fund_services');
    // the delivery three times over: every repeated position is an exact duplicate
    const tripled: FundSdmArrays = { ...gs, holdings: [0, 1, 2].flatMap((k) => gs.holdings.map((h) => ({ ...h, line: h.line + k * 2000 }))) };
    const sources = asSources(tripled);
    const run = await runChecks(sources, contextFor(sources, { maxItemsPerCheck: 50 }));
    const integrity = run.items.filter((i) => i.check === 'holdings_integrity');
    expect(integrity).toHaveLength(50);
    expect(integrity.slice(0, 49).every((i) => i.status === 'fail')).toBe(true);
    const summary = integrity[49];
    expect(summary.name).toBe(ITEMS_NOT_LISTED);
    expect(run.omitted?.holdings_integrity).toBe((summary.details as { omitted: number }).omitted);
    expect(summary.details).toMatchObject({ fail: expect.any(Number), limit: 50 });
    expect((summary.details as { omitted: number }).omitted).toBeGreaterThanOrEqual(2 * gs.holdings.length - 49);
    expect(run.items.find((i) => i.name === 'FX testing: total impact')).toBeTruthy();
  });
});

/**
 * Scorecard benchmark: 100,000 fund requests with 24 months of delivery and chase events
 * (`scorecards-data.ts`) in a temporary data directory; the cached facts of every request written
 * from the events (what the running server's refresher does after a bulk of events); then the
 * scorecards a team opens timed sequentially (p50/p95 of `--runs` runs each), and the same with
 * every request's facts stale (read from the events alone, as just after a migration or a bulk
 * import, before the refresher caught up). Prints markdown tables. Not part of the test suite.
 *
 *   npx tsx bench/scorecards.bench.ts [--funds 100000] [--runs 40] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import '../server/jobs/stages/index.js';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { scorecardFunds } from '../server/services/scorecards/funds.js';
import { refreshAllScorecardFacts } from '../server/services/scorecards/refresh.js';
import { scorecard, type ScorecardInput } from '../server/services/scorecards/scorecard.js';
import { scorecardWorkbook } from '../server/services/scorecards/xlsx.js';
import { fmt, percentile } from './http-load.js';
import { seedScorecardHistory } from './scorecards-data.js';

const { values: args } = parseArgs({
  options: {
    funds: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    keep: { type: 'boolean', default: false },
  },
});
const FUNDS = Number(args.funds);
const RUNS = Number(args.runs);

const dir = mkdtempSync(join(tmpdir(), 'fa-bench-scorecards-'));
const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
await bootstrap(ctx);
const started = performance.now();
const now = Date.now();
const seed = seedScorecardHistory(ctx.sqlite, FUNDS, now);
process.stdout.write(
  `Seeded ${seed.funds.toLocaleString('en')} fund requests, ${seed.inputFiles.toLocaleString('en')} input files, ${seed.deliveryEvents.toLocaleString('en')} delivery events and ${seed.chaseEvents.toLocaleString('en')} chase events (${seed.from} to ${seed.to}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n\n`,
);

const r0 = performance.now();
const refreshed = await refreshAllScorecardFacts(ctx);
process.stdout.write(
  `Cached facts of ${refreshed.requests.toLocaleString('en')} requests and tallies of ${refreshed.buckets.toLocaleString('en')} buckets (TPA, client, month) written from their events in ${((performance.now() - r0) / 1000).toFixed(1)} s\n\n`,
);

const lastYear = (() => {
  const d = new Date(Date.parse(`${seed.to}-01T00:00:00Z`));
  d.setUTCMonth(d.getUTCMonth() - 11);
  return d.toISOString().slice(0, 7);
})();

const cases: Array<{ name: string; run: () => Promise<{ requests: number }> }> = [
  { name: 'every TPA ranked, last 12 months', run: () => card({ kind: 'tpa', from: lastYear, to: seed.to }) },
  { name: 'every TPA ranked, 24 months', run: () => card({ kind: 'tpa', from: seed.from, to: seed.to }) },
  { name: 'one TPA (tpa_7), last 12 months, with the ranking', run: () => card({ kind: 'tpa', key: 'tpa_7', from: lastYear, to: seed.to }) },
  { name: 'one client (Lyra Funds), 24 months, with the ranking', run: () => card({ kind: 'client', key: 'Lyra Funds', from: seed.from, to: seed.to }) },
  {
    name: 'a Client user: their client, 24 months',
    run: () => card({ kind: 'client', from: seed.from, to: seed.to }, { role: 'Client', client: 'Helix Partners' }),
  },
  {
    name: 'drill-down: late funds of tpa_7, 24 months, first 100',
    run: async () => ({
      requests: (await scorecardFunds(ctx, { kind: 'tpa', key: 'tpa_7', from: seed.from, to: seed.to, filter: 'late', limit: 100 }, null)).pagination.count,
    }),
  },
];

async function card(input: ScorecardInput, viewer: Parameters<typeof scorecard>[2] = null) {
  const result = await scorecard(ctx, input, viewer);
  return { requests: result.figures.requests };
}

const print = (line: string) => process.stdout.write(`${line}\n`);

async function timeCases(list: typeof cases, runs: number): Promise<void> {
  print('| scorecard | requests counted | p50 ms | p95 ms |');
  print('|---|---:|---:|---:|');
  for (const c of list) {
    await c.run();
    const times: number[] = [];
    let requests = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      requests = (await c.run()).requests;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    print(`| ${c.name} | ${requests.toLocaleString('en')} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} |`);
  }
}

print('Cached facts up to date:\n');
await timeCases(cases, RUNS);
const x0 = performance.now();
const book = await scorecardWorkbook(ctx, { kind: 'tpa', from: seed.from, to: seed.to }, null);
print(`| xlsx export: every TPA, 24 months (${Math.round(book.bytes.length / 1024)} KB) | | ${fmt(performance.now() - x0)} | |`);

// every request stale: the figures come from the events alone
ctx.sqlite.exec('UPDATE scorecard_facts SET stale = 1');
ctx.sqlite.exec('UPDATE scorecard_tallies SET stale = 1');
print('\nEvery request stale (read from the events):\n');
await timeCases(cases.slice(0, 2), Math.max(3, Math.round(RUNS / 4)));

ctx.close();
if (args.keep) process.stdout.write(`\nData directory kept: ${dir}\n`);
else rmSync(dir, { recursive: true, force: true });

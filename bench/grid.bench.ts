/**
 * Grid benchmark in real Chromium: a real `fund-audit serve` (the built bundle, `node build.mjs`)
 * on a fresh data directory with the demo data and `--funds` generated fund requests, the delivery
 * Dashboard at 200 rows a page with 39 data columns and the auditor Funds Listing at 200 rows a
 * page, each measured with the UI as built now (`dist/web`) and with a baseline UI in the same run
 * against the same server (its files served to the browser in place of `dist/web`).
 *
 *   npx tsx bench/grid.bench.ts [--funds 3000] [--runs 7] [--baseline auto | <git ref> | <folder>] [--profile <folder>]
 *
 * The baseline is the UI of a git commit (`git archive`, built with its own build.mjs), of a
 * source folder (built there) or a built UI folder (with index.html). `auto`: the commit before
 * the first whose UI uses components/grid/fast-rows.ts (HEAD while none does). Measured, per interaction:
 * - select: from the pointer going down on a row's checkbox to the paint showing it selected;
 * - page / search: from the end of the listing response (resource timing) to the paint showing
 *   the new rows (the search box's 300 ms pause before asking is not counted).
 * Each with the main thread's script, style and layout time of the interaction (CDP
 * Performance.getMetrics), which says where the time goes. Prints markdown tables.
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../web/e2e/browser.js';
import { repoRoot, runCli, sessionOf, startServer, type ServerHandle } from '../web/e2e/harness.js';
import { seedFunds } from '../web/e2e/seed-funds.js';

const { values: args } = parseArgs({
  options: {
    funds: { type: 'string', default: '3000' },
    runs: { type: 'string', default: '7' },
    baseline: { type: 'string', default: 'auto' },
    // a folder for Chrome CPU profiles of each interaction's first run (open them in DevTools)
    profile: { type: 'string' },
  },
});
const FUNDS = Number(args.funds);
const RUNS = Number(args.runs);
const PAGE_ROWS = 200;
const DATA_COLUMNS = 39;
/** Dashboard columns hidden to reach 39 data columns (from those hidden by default). */
const HIDEABLE = [
  'price_type_1',
  'price_type_2',
  'price_type_3',
  'price_source_1',
  'price_source_2',
  'price_source_3',
  'notes',
  'PM',
  'TE',
  'SAD',
  'accounting_standard',
];
const SEARCHES = ['equity', 'bond', 'balanced', 'income', 'growth'];

/** The git ref `auto` stands for: the commit before the first to use the fast grid rows, or HEAD when none does. */
function autoBaseline(): string {
  const first = execFileSync('git', ['log', '-S', 'components/grid/fast-rows', '--format=%H', '--', 'web/src'], { cwd: repoRoot, encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
    .at(-1);
  return first ? `${first}~1` : 'HEAD';
}

/** The built UI folder of the baseline (`dist/web` or a folder with index.html), built when needed. */
function baselineWeb(spec: string): string {
  const asDir = resolve(spec);
  if (existsSync(join(asDir, 'index.html'))) return asDir;
  if (existsSync(join(asDir, 'dist/web/index.html')) && !existsSync(join(asDir, 'build.mjs'))) return join(asDir, 'dist/web');
  let tree = asDir;
  if (!existsSync(join(asDir, 'build.mjs'))) {
    tree = mkdtempSync(join(tmpdir(), 'fund-audit-grid-baseline-'));
    execSync(`git archive --format=tar ${JSON.stringify(spec)} -- . ':(exclude)fixtures' | tar -x -C ${JSON.stringify(tree)}`, { cwd: repoRoot });
  }
  if (!existsSync(join(tree, 'node_modules'))) symlinkSync(join(repoRoot, 'node_modules'), join(tree, 'node_modules'));
  execFileSync(process.execPath, ['build.mjs', 'web'], { cwd: tree, stdio: 'inherit' });
  return join(tree, 'dist/web');
}

/** In-page helpers: the last pointer-down time, and a wait for a condition followed by the next paint. */
const PAGE_HELPERS = () => {
  performance.setResourceTimingBufferSize(100_000);
  const w = window as unknown as Record<string, unknown>;
  w.__lastInput = 0;
  addEventListener('pointerdown', (e) => (w.__lastInput = e.timeStamp), true);
  /** Resolves with performance.now() just after the paint of the frame in which `ready()` first held. */
  w.__paintWhen = (ready: () => boolean) =>
    new Promise<number>((done) => {
      const painted = () =>
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => done(performance.now());
          ch.port2.postMessage(0);
        });
      if (ready()) return painted();
      const obs = new MutationObserver(() => {
        if (!ready()) return;
        obs.disconnect();
        painted();
      });
      obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
};

interface Sample {
  ms: number;
  script: number;
  style: number;
  layout: number;
}

/** Main-thread time split of the CDP metrics (ms). */
async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value * 1000]));
}

/** Runs `act` and measures it with `measure` (returns ms) and the CDP time split. */
async function sample(cdp: CDPSession, act: () => Promise<void>, measure: () => Promise<number>, profileAs?: string): Promise<Sample> {
  if (profileAs) await cdp.send('Profiler.start');
  const before = await metrics(cdp);
  const pending = measure();
  await act();
  const ms = await pending;
  const after = await metrics(cdp);
  if (profileAs) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
    mkdirSync(args.profile as string, { recursive: true });
    writeFileSync(join(args.profile as string, `${profileAs}.cpuprofile`), JSON.stringify(profile));
  }
  return {
    ms,
    script: after.ScriptDuration - before.ScriptDuration,
    style: after.RecalcStyleDuration - before.RecalcStyleDuration,
    layout: after.LayoutDuration - before.LayoutDuration,
  };
}

/** Starts waiting (in the page) for the row at `index` of `grid` to show selected; ms from the pointer-down to its paint. */
function selectedPaint(page: Page, grid: string, index: number, selected: boolean): Promise<number> {
  return page.evaluate(
    async ({ grid, index, selected }) => {
      const w = window as unknown as { __lastInput: number; __paintWhen: (r: () => boolean) => Promise<number> };
      const row = () => document.querySelectorAll(`${grid} tbody.p-datatable-tbody > tr`)[index];
      const start = performance.now();
      const end = await w.__paintWhen(() => w.__lastInput >= start && row()?.getAttribute('aria-selected') === String(selected));
      return end - w.__lastInput;
    },
    { grid, index, selected },
  );
}

/** Starts waiting for new rows in `grid` (first row changed, no loading overlay); ms from the listing response's end to their paint. */
async function rowsPaint(page: Page, grid: string, apiPath: string): Promise<number> {
  return page.evaluate(
    async ({ grid, apiPath }) => {
      const w = window as unknown as { __paintWhen: (r: () => boolean) => Promise<number> };
      const first = () => document.querySelector(`${grid} tbody.p-datatable-tbody > tr`)?.textContent ?? '';
      const was = first();
      performance.clearResourceTimings();
      const end = await w.__paintWhen(() => !document.querySelector(`${grid} .p-datatable-loading-overlay`) && first() !== was);
      const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes(apiPath)) as PerformanceResourceTiming[];
      const last = entries[entries.length - 1];
      if (!last) throw new Error(`no ${apiPath} response before the rows changed`);
      return end - last.responseEnd;
    },
    { grid, apiPath },
  );
}

/** Serves the files of `webDir` to the context in place of the server's UI (the API and the socket go through). */
async function serveUiFrom(context: BrowserContext, webDir: string): Promise<void> {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.html': 'text/html',
    '.woff2': 'font/woff2',
    '.woff': 'font/woff',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.ttf': 'font/ttf',
  };
  await context.route(
    (url) => !url.pathname.startsWith('/api'),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      const file = join(webDir, path);
      const found = path !== '/' && existsSync(file) && file.startsWith(webDir) ? file : join(webDir, 'index.html');
      return route.fulfill({ status: 200, contentType: types[extname(found)] ?? 'application/octet-stream', body: readFileSync(found) });
    },
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);

interface Result {
  ui: string;
  grid: string;
  what: string;
  samples: Sample[];
  target: number;
}

/** Measures both grids with one UI. */
async function measureUi(server: ServerHandle, label: string, webDir: string | null): Promise<Result[]> {
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  if (webDir) await serveUiFrom(context, webDir);
  // tsx names the functions it compiles through a `__name` helper the page does not have
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  await context.addInitScript(PAGE_HELPERS);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Profiler.enable');
  /** The profile name of an interaction's first run (with --profile), else undefined. */
  const prof = (i: number, name: string) => (args.profile && i === 0 ? `${label}-${name}` : undefined);
  const out: Result[] = [];
  const push = (grid: string, what: string, samples: Sample[], target: number) => out.push({ ui: label, grid, what, samples, target });

  // sign in as the administrator (a fresh one-time link for each UI)
  const link = /(https?:\/\/\S+\/redeemToken\/#[\w-]+)/.exec(runCli(server, ['users', 'link', 'admin@fund-audit.local', '--base-url', server.url]))?.[1];
  if (!link) throw new Error('no sign-in link');
  await page.goto(link);
  // the privacy notice shows until the user accepted it once
  const notice = page.getByRole('dialog', { name: 'Privacy notice' });
  await notice.or(page.locator('[data-frame]')).first().waitFor();
  if (await notice.isVisible()) {
    await page.getByTestId('privacy-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new Event('scroll'));
    });
    await notice.getByRole('button', { name: 'Accept' }).click();
  }
  await page.locator('[data-frame]').waitFor();
  const userId = (await sessionOf(page, server.url)).user.id;

  /** Waits for a page of 200 rows in `grid` (rows may be rendered only while in view). */
  const pageOf200 = (grid: string) =>
    page.waitForFunction(
      ({ g, n }) =>
        document.querySelector(`${g} .p-paginator .p-dropdown-label`)?.textContent?.trim() === String(n) &&
        !document.querySelector(`${g} .p-datatable-loading-overlay`) &&
        document.querySelectorAll(`${g} tbody.p-datatable-tbody > tr`).length >= 15,
      { g: grid, n: PAGE_ROWS },
    );
  const rendered = (grid: string) => page.locator(`${grid} tbody.p-datatable-tbody > tr`).count();

  // Dashboard: 200 rows a page, 39 data columns
  const dash = '.fa-fund-grid';
  const openDashboard = async (hidden: string[]) => {
    await page.evaluate(({ key, hidden, rows }) => localStorage.setItem(key, JSON.stringify({ rows, hiddenColumns: hidden })), {
      key: `fa.listing.${userId}`,
      hidden,
      rows: PAGE_ROWS,
    });
    await page.goto(`${server.url}/`);
    await pageOf200(dash);
    return page.locator(`${dash} thead th[data-col]`).count();
  };
  const all = await openDashboard([]);
  const columns = await openDashboard(HIDEABLE.slice(0, Math.max(0, all - DATA_COLUMNS)));
  if (columns !== DATA_COLUMNS) process.stdout.write(`(${label}: the dashboard shows ${columns} data columns, not ${DATA_COLUMNS})\n`);
  process.stdout.write(`${label}: dashboard ${PAGE_ROWS} rows a page (${await rendered(dash)} in the page) x ${columns} data columns\n`);

  const checkbox = (grid: string, i: number) => page.locator(`${grid} tbody.p-datatable-tbody > tr`).nth(i).locator('td').first();
  const selects: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const row = 1 + ((i * 2) % 14);
    selects.push(
      await sample(
        cdp,
        () => checkbox(dash, row).click(),
        () => selectedPaint(page, dash, row, true),
        prof(i, 'dashboard-select'),
      ),
    );
  }
  push('Dashboard', 'select a row', selects, 100);

  const pages: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const next = page.locator(`${dash} .p-paginator-next`);
    pages.push(
      await sample(
        cdp,
        () => next.click(),
        () => rowsPaint(page, dash, '/funds/listing'),
        prof(i, 'dashboard-page'),
      ),
    );
  }
  push('Dashboard', 'next page', pages, 300);

  const searches: Sample[] = [];
  const box = page.getByRole('searchbox', { name: 'Search fund requests' });
  for (let i = 0; i < RUNS; i++) {
    searches.push(
      await sample(
        cdp,
        () => box.fill(SEARCHES[i % SEARCHES.length]),
        () => rowsPaint(page, dash, '/funds/listing'),
        prof(i, 'dashboard-search'),
      ),
    );
  }
  push('Dashboard', 'search', searches, 300);
  await page.evaluate((key) => localStorage.removeItem(key), `fa.listing.${userId}`);

  // auditor Funds Listing: 200 rows a page (10 data columns)
  const aud = '[data-testid="funds-listing"]';
  await page.getByTestId('delivery-sider').getByRole('button', { name: 'Switch to auditor' }).click();
  await page.locator('[data-frame="auditor"]').waitFor();
  await page.getByTestId('auditor-tabs').getByRole('link', { name: 'Data Platform', exact: true }).click();
  await page.locator('main#fa-main').getByRole('tab', { name: 'Funds Listing', exact: true }).click();
  await page.locator(`${aud} tbody tr`).nth(10).waitFor();
  await page.locator(`${aud} .p-paginator .p-dropdown`).click();
  await page.getByRole('option', { name: String(PAGE_ROWS), exact: true }).click();
  await pageOf200(aud);
  process.stdout.write(`${label}: funds listing ${PAGE_ROWS} rows a page (${await rendered(aud)} in the page)\n`);
  const audSelects: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const row = 1 + ((i * 2) % 14);
    audSelects.push(
      await sample(
        cdp,
        () => checkbox(aud, row).locator('.p-checkbox').click(),
        () => selectedPaint(page, aud, row, true),
        prof(i, 'auditor-select'),
      ),
    );
  }
  push('Funds Listing (auditor)', 'select a row', audSelects, 100);
  const audPages: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    audPages.push(
      await sample(
        cdp,
        () => page.locator(`${aud} .p-paginator-next`).click(),
        () => rowsPaint(page, aud, '/user/funds/'),
        prof(i, 'auditor-page'),
      ),
    );
  }
  push('Funds Listing (auditor)', 'next page', audPages, 300);

  await browser.close();
  return out;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const baseline = args.baseline === 'auto' ? autoBaseline() : (args.baseline as string);
  process.stdout.write(`baseline UI: ${baseline}\n`);
  const baseDir = baselineWeb(baseline);
  const server = await startServer();
  try {
    seedFunds(server, FUNDS);
    const results = [...(await measureUi(server, 'baseline', baseDir)), ...(await measureUi(server, 'now', null))];
    process.stdout.write(`\n${FUNDS.toLocaleString('en-US')} generated funds, ${RUNS} runs each; ms (median / max), main-thread split of the median run\n\n`);
    process.stdout.write('| grid | interaction | target | UI | median ms | max ms | script | style | layout |\n|---|---|---:|---|---:|---:|---:|---:|---:|\n');
    for (const r of results.sort((a, b) => `${a.grid}${a.what}`.localeCompare(`${b.grid}${b.what}`))) {
      const ms = r.samples.map((s) => s.ms);
      const mid = [...r.samples].sort((a, b) => a.ms - b.ms)[Math.floor(r.samples.length / 2)];
      process.stdout.write(
        `| ${r.grid} | ${r.what} | < ${r.target} | ${r.ui} | ${fmt(median(ms))} | ${fmt(max(ms))} | ${fmt(mid.script)} | ${fmt(mid.style)} | ${fmt(mid.layout)} |\n`,
      );
    }
  } finally {
    await server.stop();
    if (baseDir.includes('fund-audit-grid-baseline-')) rmSync(resolve(baseDir, '../..'), { recursive: true, force: true });
  }
}

await main();

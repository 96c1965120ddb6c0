/**
 * `fund-audit test list` and `fund-audit test run --admin CODE [--tests 1,2] [--reporter junit|plain
 * --output FILE]`: the regression suites of `fixtures/test-suites`, headless for CI. Locally the
 * cases run in this process, each in a temporary workspace, with the fixtures' master mappings
 * (nothing is written to the data directory; `--mappings production` only reads its master
 * mappings). With `--server URL --token KEY` the run is scheduled on the server and polled until it
 * ends. Exit 0 when every case passes, 3 when one fails.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../server/config.js';
import { createContext, type AppContext } from '../../server/context.js';
import { AppError, ValidationError } from '../../server/errors.js';
import { caseFailureText, caseProblem, junitXml, plainReport } from '../../server/services/test-runner/report.js';
import type { CaseResult } from '../../server/services/test-runner/run-case.js';
import { hasFailures, planRun, runPlan, splitList, startResults, type RunResults } from '../../server/services/test-runner/run-suites.js';
import { defaultSuitesDir, loadSuites } from '../../server/services/test-runner/suites.js';
import type { listSuites, TestRunView } from '../../server/services/test-runner/test-runner.js';
import type { MappingSource } from '../../server/services/test-runner/workspace.js';
import { globals, type GlobalOptions } from '../global.js';
import { EXIT, output, printTable } from '../output.js';
import { isRemote, remoteCall } from '../remote.js';
import { createReporter, type Reporter } from '../ui/reporter.js';

const collect = (v: string, prev: string[]) => [...prev, v];
const ENDED = ['done', 'error', 'suspended'];
const NEXT = 'read the differences above; if the change is intended, regenerate the expected outputs: npx tsx fixtures/scripts/build-test-suites.ts';

/** Shows the progress of the administrators' suites as tasks with a bar each. */
function showProgress(ui: Reporter, results: RunResults, totals: Record<string, number>, ended = false): void {
  for (const [code, total] of Object.entries(totals)) {
    const tests = results.reports[code]?.tests ?? [];
    const failed = tests.filter((t) => !t.success).length;
    const finished = tests.length >= total || ended;
    ui.task(code, {
      total,
      done: tests.length,
      status: failed ? (finished ? 'error' : 'running') : finished ? 'done' : tests.length ? 'running' : 'pending',
      note: `${tests.length - failed} passed${failed ? `, ${failed} failed` : ''}`,
    });
  }
}

async function mappingSource(g: GlobalOptions, value: string): Promise<{ source: MappingSource; ctx?: AppContext }> {
  if (value === 'fixtures') return { source: { kind: 'fixtures' } };
  if (value !== 'production') {
    if (!existsSync(value)) throw new ValidationError(`--mappings: ${value} is neither 'fixtures', 'production' nor an existing folder`);
    return { source: { kind: 'dir', dir: resolve(value) } };
  }
  const config = loadConfig({ dataDir: g.dataDir });
  if (!existsSync(join(config.dataDir, config.dbName)))
    throw new ValidationError(`--mappings production: no database in ${config.dataDir} (give the data directory with -d)`);
  const ctx = await createContext({ dataDir: g.dataDir, terminalLog: false });
  return { source: { kind: 'production', ctx }, ctx };
}

async function runLocal(g: GlobalOptions, opts: { codes: string[]; testIds: string[]; mappings: string; suites?: string }, ui: Reporter): Promise<RunResults> {
  const plan = planRun(loadSuites(opts.suites ? resolve(opts.suites) : defaultSuitesDir()), opts.codes, opts.testIds);
  const totals = Object.fromEntries(plan.map((p) => [p.administratorCode, p.tests.length]));
  const { source, ctx } = await mappingSource(g, opts.mappings);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    showProgress(ui, startResults(plan), totals);
    const { results, cancelled } = await runPlan(plan, {
      mappings: source,
      signal: controller.signal,
      onProgress: (p, partial) => {
        if (p.type === 'case-start')
          ui.task(p.administratorCode, {
            status: 'running',
            total: totals[p.administratorCode],
            done: partial.reports[p.administratorCode].tests.length,
            note: `case ${p.test.id}: ${p.test.title}`,
          });
        else showProgress(ui, partial, totals);
      },
    });
    showProgress(ui, results, totals, true);
    if (cancelled) results.error = 'The run was cancelled';
    return results;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    ctx?.close();
  }
}

async function runRemote(g: GlobalOptions, opts: { codes: string[]; testIds: string[]; mappings: string; timeout: number }, ui: Reporter): Promise<RunResults> {
  if (opts.mappings !== 'production' && opts.mappings !== 'fixtures') throw new ValidationError('--mappings with --server: production or fixtures');
  const run = await remoteCall<TestRunView>(g, 'POST', 'dev-tools/test-runner/schedule', {
    administratorCodes: opts.codes,
    testIds: opts.testIds,
    mappings: opts.mappings,
  });
  const { suites } = await remoteCall<{ suites: ReturnType<typeof listSuites> }>(g, 'GET', 'dev-tools/test-runner/tests?limit=1');
  const totals = Object.fromEntries(
    opts.codes.map((c) => [
      c,
      suites.find((s) => s.administratorCode === c)?.tests.filter((t) => !opts.testIds.length || opts.testIds.includes(t.id)).length ?? 0,
    ]),
  );
  ui.task(`Run ${run.id}`, { status: 'running', note: 'scheduled on the server' });
  const deadline = Date.now() + opts.timeout * 1000;
  for (;;) {
    const cur = await remoteCall<TestRunView>(g, 'GET', `dev-tools/test-runner/tests/${run.id}`);
    const results = cur.results ?? { stats: { startedAt: cur.created_at, finishedAt: null, totalTime: null }, reports: {} };
    showProgress(ui, results, totals, ENDED.includes(cur.status));
    if (ENDED.includes(cur.status)) {
      ui.task(`Run ${run.id}`, { status: cur.status === 'done' ? 'done' : 'error', note: cur.status });
      if (cur.status !== 'done') results.error ??= `The run ended with status ${cur.status}`;
      return results;
    }
    if (Date.now() > deadline) {
      await remoteCall(g, 'POST', 'dev-tools/test-runner/test/stop', { id: run.id }).catch(() => undefined);
      throw new AppError(`Test run ${run.id} did not finish within ${opts.timeout} s; it was stopped`, 504);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const row = (code: string, t: CaseResult) => ({
  administrator: code,
  id: t.id,
  title: t.title,
  result: t.success ? 'pass' : 'FAIL',
  seconds: (t.time / 1000).toFixed(1),
  problem: caseProblem(t),
});

export function registerTest(program: Command): void {
  const test = program.command('test').description('Run the regression test suites (fixtures/test-suites) through the real pipeline');
  test
    .command('list')
    .description('List the test suites: administrators, test ids and titles')
    .option('--suites <dir>', 'folder of the suites (default fixtures/test-suites)')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const suites = isRemote(g)
        ? (await remoteCall<{ suites: ReturnType<typeof listSuites> }>(g, 'GET', 'dev-tools/test-runner/tests?limit=1')).suites
        : loadSuites(opts.suites ? resolve(opts.suites) : defaultSuitesDir()).map((s) => ({
            administratorCode: s.administratorCode,
            tests: s.tests.map((t) => ({ id: t.id, title: t.title, description: t.description, ...(t.loadError ? { error: t.loadError } : {}) })),
          }));
      output(suites, !!g.json, () =>
        printTable(
          suites.flatMap((s) =>
            s.tests.map((t) => ({ administrator: s.administratorCode, id: t.id, title: t.title, ...('error' in t ? { error: t.error } : {}) })),
          ),
        ),
      );
    });
  test
    .command('run')
    .description('Run test suites and report; exit 3 when a case fails')
    .option('--admin <codes>', 'administrator code(s): repeat or separate with commas', collect, [])
    .option('--tests <ids>', 'test ids to run in each suite, comma-separated (default all)')
    .option('--reporter <kind>', 'report format: plain or junit', 'plain')
    .option('--output <file>', 'write the report to this file (default: standard output)')
    .option(
      '--mappings <source>',
      "master mappings: 'fixtures' (default), 'production' (read from the data directory; with --server the server's) or a folder of <code>/ mapping folders",
      'fixtures',
    )
    .option('--suites <dir>', 'folder of the suites (default fixtures/test-suites; local runs only)')
    .option('--timeout <seconds>', 'with --server: how long to wait for the run', '900')
    .addHelpText('after', '\nExit codes: 0 every case passed; 3 a case failed (or an unknown administrator / test id); see docs/cli.md.')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      if (!['plain', 'junit'].includes(opts.reporter)) throw new ValidationError(`--reporter must be plain or junit (got ${opts.reporter})`);
      const codes = splitList(opts.admin as string[]);
      if (!codes.length) throw new ValidationError('Give at least one administrator with --admin CODE (see `fund-audit test list`)');
      const testIds = splitList(opts.tests);
      const reportToStdout = !opts.output && opts.reporter === 'junit';
      const ui = await createReporter({ json: !!g.json || reportToStdout });
      const args = { codes, testIds, mappings: String(opts.mappings), suites: opts.suites, timeout: Number(opts.timeout) };
      const results = isRemote(g) ? await runRemote(g, args, ui) : await runLocal(g, args, ui);
      const report = opts.reporter === 'junit' ? junitXml(results) : plainReport(results);
      if (opts.output) writeFileSync(opts.output, report);
      const cases = Object.entries(results.reports).flatMap(([code, r]) => r.tests.map((t) => row(code, t)));
      ui.table(cases, ['administrator', 'id', 'title', 'result', 'seconds', 'problem']);
      const failed = cases.filter((c) => c.result !== 'pass');
      if (failed.length || results.error)
        ui.errors(
          [...failed.map((f) => `${f.administrator} ${f.id}: ${f.problem}`), ...(results.error ? [results.error] : [])],
          failed.length && !results.error ? NEXT : undefined,
        );
      if (g.json) await ui.finish(results);
      else {
        await ui.finish(null);
        if (reportToStdout) process.stdout.write(report);
        else
          for (const [code, r] of Object.entries(results.reports))
            for (const t of r.tests.filter((x) => !x.success))
              process.stdout.write(`\n${code} ${t.id} ${t.title}: FAILED\n${caseFailureText(t).replace(/^/gm, '  ')}\n`);
      }
      if (results.error) process.exitCode = EXIT.failure;
      else if (failed.length || hasFailures(results)) process.exitCode = EXIT.invalid;
    });
}

/**
 * `fund-audit test list` and `fund-audit test run --admin CODE [--tests 1,2] [--reporter junit|plain
 * --output FILE]`: the regression suites of `fixtures/test-suites`, headless for CI. Locally the
 * cases run in this process, each in a temporary workspace, with the fixtures' master mappings
 * (nothing is written to the install; `--mappings production` only reads its master mappings,
 * from the data directory or the PostgreSQL database of `--database-url`). With `--server URL --token KEY` the run is scheduled on the server and polled until it
 * ends (cli/backend/test-runner.ts), with the same output either way. Exit 0 when every case passes, 3
 * when one fails.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import { caseFailureText, caseProblem, junitXml, plainReport } from '../../server/services/test-runner/report.js';
import { hasFailures, splitList, type CaseResult, type RunResults } from '../../server/services/test-runner/plan.js';
import { testRunnerBackend } from '../backend/test-runner.js';
import { globals } from '../global.js';
import { EXIT, output, printTable } from '../output.js';
import { createReporter, type Reporter } from '../ui/reporter.js';

const collect = (v: string, prev: string[]) => [...prev, v];
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
      const suites = await testRunnerBackend(g).list(opts.suites);
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
      "master mappings: 'fixtures' (default), 'production' (read from the install: the data directory or --database-url; with --server the server's) or a folder of <code>/ mapping folders",
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
      // live progress only in a terminal: printed output is the same locally and with --server
      const live = !!process.stdout.isTTY && !process.env.CI && !g.json && !reportToStdout;
      const { results, totals } = await testRunnerBackend(g).run(args, live ? (partial, planned) => showProgress(ui, partial, planned) : undefined);
      showProgress(ui, results, totals, true);
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

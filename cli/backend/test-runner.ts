/**
 * The backend of `fund-audit test`: the regression suites and their runs. Locally the suites are
 * read from a folder and the cases run in this process, each in a temporary workspace of its own
 * (nothing is written to the install; `--mappings production` only reads its master mappings, from
 * the data directory's SQLite or the PostgreSQL database of `--database-url`); on a
 * server the run is scheduled there and polled until it ends.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppContext } from '../../server/context.js';
import { openContext } from '../../server/open-context.js';
import { AppError, ValidationError } from '../../server/errors.js';
import { runPlan } from '../../server/jobs/test-runner/run-suites.js';
import { planRun, type RunResults } from '../../server/services/test-runner/plan.js';
import { defaultSuitesDir, loadSuites } from '../../server/services/test-runner/suites.js';
import type { MappingSource } from '../../server/jobs/test-runner/workspace.js';
import type { ApiResponse } from '../../server/http/contract.js';
import { localConfig, type GlobalOptions } from '../global.js';
import { operation } from '../operation.js';
import { isRemote } from '../remote.js';

/** A suite as `test list` prints it: its administrator and its cases. */
export type SuiteSummary = Omit<ApiResponse<'GET /api/v2.0/dev-tools/test-runner/tests'>['suites'][number], 'administratorName'>;

/** What to run: administrators, test ids (none: all), the master mappings and (local) the suites' folder. */
export interface RunRequest {
  codes: string[];
  testIds: string[];
  mappings: string;
  suites?: string;
  /** Seconds to wait for a run on a server. */
  timeout: number;
}

/** The results of a run and the number of cases planned per administrator. */
export interface RunOutcome {
  results: RunResults;
  totals: Record<string, number>;
}

export interface TestRunnerBackend {
  /** The suites (local: of `suitesDir`, default fixtures/test-suites). */
  list(suitesDir?: string): Promise<SuiteSummary[]>;
  /**
   * Runs the cases; `onProgress` gets the results so far and the cases planned per administrator.
   * @throws ValidationError for an unknown administrator or test id; AppError 504 when a server's run outlasts the timeout
   */
  run(req: RunRequest, onProgress?: (results: RunResults, totals: Record<string, number>) => void): Promise<RunOutcome>;
}

const ENDED = ['done', 'error', 'suspended'];

/** The suites' cases as listed (a case that cannot be loaded names why). */
const summary = (s: SuiteSummary): SuiteSummary => ({
  administratorCode: s.administratorCode,
  tests: s.tests.map((t) => ({ id: t.id, title: t.title, description: t.description, ...(t.error ? { error: t.error } : {}) })),
});

async function mappingSource(g: GlobalOptions, value: string): Promise<{ source: MappingSource; ctx?: AppContext }> {
  if (value === 'fixtures') return { source: { kind: 'fixtures' } };
  if (value !== 'production') {
    if (!existsSync(value)) throw new ValidationError(`--mappings: ${value} is neither 'fixtures', 'production' nor an existing folder`);
    return { source: { kind: 'dir', dir: resolve(value) } };
  }
  const config = localConfig(g);
  if (!config.databaseUrl && !existsSync(join(config.dataDir, config.dbName)))
    throw new ValidationError(
      `--mappings production: no database in ${config.dataDir} (give the data directory with -d, or the PostgreSQL database with --database-url)`,
    );
  // the install's database, SQLite or PostgreSQL: only its master mappings are read
  const ctx = await openContext({ config, terminalLog: false });
  return { source: { kind: 'production', ctx }, ctx };
}

function localBackend(g: GlobalOptions): TestRunnerBackend {
  const suitesOf = (dir?: string) => loadSuites(dir ? resolve(dir) : defaultSuitesDir());
  return {
    list: async (dir) =>
      suitesOf(dir).map((s) =>
        summary({
          administratorCode: s.administratorCode,
          tests: s.tests.map((t) => ({ id: t.id, title: t.title, description: t.description, error: t.loadError ?? undefined })),
        }),
      ),
    run: async (req, onProgress) => {
      const plan = planRun(suitesOf(req.suites), req.codes, req.testIds);
      const totals = Object.fromEntries(plan.map((p) => [p.administratorCode, p.tests.length]));
      const { source, ctx } = await mappingSource(g, req.mappings);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        const { results, cancelled } = await runPlan(plan, {
          mappings: source,
          signal: controller.signal,
          maxFileBytes: localConfig(g).maxUploadBytes,
          onProgress: (_p, partial) => onProgress?.(partial, totals),
        });
        if (cancelled) results.error = 'The run was cancelled';
        // as the API would send them (dates as ISO text, undefined fields left out)
        return { results: JSON.parse(JSON.stringify(results)) as RunResults, totals };
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        ctx?.close();
      }
    },
  };
}

function remoteBackend(g: GlobalOptions): TestRunnerBackend {
  const suites = async () => (await operation(g, 'GET /api/v2.0/dev-tools/test-runner/tests', { query: { limit: 1 } })).suites.map(summary);
  return {
    list: () => suites(),
    run: async (req, onProgress) => {
      if (req.mappings !== 'production' && req.mappings !== 'fixtures') throw new ValidationError('--mappings with --server: production or fixtures');
      const run = await operation(g, 'POST /api/v2.0/dev-tools/test-runner/schedule', {
        body: {
          administratorCodes: req.codes,
          testIds: req.testIds,
          mappings: req.mappings,
        },
      });
      const all = await suites();
      const totals = Object.fromEntries(
        req.codes.map((c) => [
          c,
          all.find((s) => s.administratorCode === c)?.tests.filter((t) => !req.testIds.length || req.testIds.includes(t.id)).length ?? 0,
        ]),
      );
      const deadline = Date.now() + req.timeout * 1000;
      for (;;) {
        const cur = await operation(g, 'GET /api/v2.0/dev-tools/test-runner/tests/:id', { params: { id: run.id } });
        const results: RunResults = {
          stats: cur.results?.stats ?? { startedAt: cur.created_at, finishedAt: null, totalTime: null },
          reports: cur.results?.reports ?? {},
          ...(cur.results?.error ? { error: cur.results.error } : {}),
        };
        if (ENDED.includes(cur.status)) {
          if (cur.status !== 'done') results.error ??= `The run ended with status ${cur.status}`;
          return { results, totals };
        }
        onProgress?.(results, totals);
        if (Date.now() > deadline) {
          await operation(g, 'POST /api/v2.0/dev-tools/test-runner/test/stop', { body: { id: run.id } }).catch(() => undefined);
          throw new AppError(`Test run ${run.id} did not finish within ${req.timeout} s; it was stopped`, 504);
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
  };
}

/** The backend of the global options: the server's API with `--server`, else this process. */
export function testRunnerBackend(g: GlobalOptions): TestRunnerBackend {
  return isRemote(g) ? remoteBackend(g) : localBackend(g);
}

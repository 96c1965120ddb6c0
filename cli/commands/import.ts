/**
 * `fund-audit import --tpa CODE FILES...`: imports TPA files and follows them through the pipeline
 * (identification, standardization, calculations, work papers), then prints what each file was
 * identified as, for which fund, and what failed. Locally the pipeline runs in this process; with
 * --server the files are uploaded and the server's progress is polled.
 */
import { accessSync, constants, openAsBlob, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { Engine } from '../../server/jobs/engine.js';
import { ValidationError } from '../../server/errors.js';
import { allJobs } from '../../server/jobs/stages/index.js';
import { seedFxRates } from '../../server/runtime.js';
import { importFile, listImports, type ImportView } from '../../server/services/imports/imports.js';
import { ensureAdmin } from '../../server/services/users/users.js';
import { globals, openLocal, type GlobalOptions } from '../global.js';
import { EXIT } from '../output.js';
import { isRemote, remoteCall } from '../remote.js';
import { createReporter, type Reporter } from '../ui/reporter.js';

const STAGES = ['identification', 'standardization', 'calculations', 'visualization'] as const;

/** The files to import, each checked to be a readable file (read later in chunks, never whole). */
function readFiles(files: string[]): ImportPath[] {
  return files.map((f) => {
    try {
      accessSync(f, constants.R_OK);
      if (!statSync(f).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      return { fileName: basename(f), path: f };
    } catch (err) {
      throw new ValidationError(`Cannot read ${f}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  });
}

interface ImportPath {
  fileName: string;
  path: string;
}

/** One result line per file. */
function summarize(view: ImportView) {
  const p = view.payload as {
    attached?: Array<{ fundRequestId: number; sdmType: string; rows: number }>;
    error?: string;
    duplicateOf?: number;
    unmatched?: Array<{ fundCode: string; sdmType: string }>;
  };
  return {
    file: view.fileName,
    status: view.status,
    identifiedAs: view.type ?? '',
    funds: [...new Set((p.attached ?? []).map((a) => a.fundRequestId))].join(' '),
    problem:
      p.error ?? (p.duplicateOf ? `same file as import ${p.duplicateOf}` : (p.unmatched ?? []).map((u) => `unmatched ${u.sdmType} ${u.fundCode}`).join('; ')),
  };
}

async function runLocal(g: GlobalOptions, tpa: string, files: ImportPath[], ui: Reporter, wait: boolean) {
  const ctx = await openLocal(g);
  try {
    const { user } = ensureAdmin(ctx, ctx.config.adminEmail);
    seedFxRates(ctx);
    const counts: Record<string, { done: number; total: number }> = Object.fromEntries(STAGES.map((s) => [s, { done: 0, total: 0 }]));
    const unsubscribe = ctx.events.on('process', (p) => {
      const c = counts[p.stage];
      if (!c) return;
      if (p.status === 'pending') c.total++;
      if (p.status === 'done' || p.status === 'error') c.done++;
      ui.task(p.stage, { total: Math.max(c.total, c.done), done: c.done, status: c.done >= c.total ? 'done' : 'running' });
    });
    const views = files.map((f) => {
      const v = importFile(ctx, { administratorCode: tpa, fileName: f.fileName, path: f.path, userId: user.id, source: 'cli' });
      ui.task(`Import ${f.fileName}`, { status: 'done', note: v.status === 'Finished' ? 'already imported' : undefined });
      return v;
    });
    if (wait) await new Engine(ctx, allJobs).drain();
    unsubscribe();
    const ids = new Set(views.map((v) => v.id));
    return listImports(ctx, { limit: 1000 }).rows.filter((r) => ids.has(r.id));
  } finally {
    ctx.close();
  }
}

async function runRemote(g: GlobalOptions, tpa: string, files: ImportPath[], ui: Reporter, wait: boolean, timeoutS: number) {
  const form = new FormData();
  form.append('administrator', tpa);
  for (const f of files) form.append('upload', await openAsBlob(f.path), f.fileName);
  const views = await remoteCall<ImportView[]>(g, 'POST', 'import/files', form);
  const ids = new Set(views.map((v) => v.id));
  ui.task('Upload', { status: 'done', note: `${views.length} file(s)` });
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const { rows } = await remoteCall<{ rows: ImportView[] }>(g, 'POST', 'import/list', { pagination: { limit: 1000 } });
    const mine = rows.filter((r) => ids.has(r.id));
    const finished = mine.filter((r) => ['Success', 'Error', 'Finished'].includes(r.status)).length;
    ui.task('identification', { total: mine.length, done: finished, status: finished === mine.length ? 'done' : 'running' });
    if (!wait || finished === mine.length || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('Import TPA files and follow them through the pipeline')
    .requiredOption('--tpa <code>', 'the administrator (TPA) the files come from')
    .argument('<files...>', 'csv, txt or xlsx files')
    .option('--no-wait', 'only store and queue the files')
    .option('--timeout <seconds>', 'with --server: how long to wait for identification', '300')
    .addHelpText('after', '\nExit codes: 0 every file identified and matched; 3 a file failed identification or matched no fund; see docs/cli.md.')
    .action(async (paths: string[], opts, cmd: Command) => {
      const g = globals(cmd);
      const files = readFiles(paths);
      const ui = await createReporter({ json: !!g.json });
      const rows = isRemote(g) ? await runRemote(g, opts.tpa, files, ui, opts.wait, Number(opts.timeout)) : await runLocal(g, opts.tpa, files, ui, opts.wait);
      const table = rows.map(summarize);
      ui.table(table, ['file', 'status', 'identifiedAs', 'funds', 'problem']);
      const failed = table.filter((t) => t.status === 'Error' || (t.problem && t.status !== 'Finished'));
      if (failed.length)
        ui.errors(
          failed.map((f) => `${f.file}: ${f.problem}`),
          'check the TPA file layouts and fund requests, then import again (or see Input files in the UI)',
        );
      await ui.finish({ imports: rows, summary: table });
      if (failed.length) process.exitCode = EXIT.invalid;
    });
}

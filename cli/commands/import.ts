/**
 * `fund-audit import --tpa CODE FILES...`: imports TPA files and follows them through the pipeline
 * (identification, standardization, calculations, work papers), then prints what each file was
 * identified as, for which fund, and what failed, through the imports backend (cli/backend/imports.ts):
 * locally the pipeline runs in this process; with --server the files are uploaded and the server's
 * progress is polled. The output is the same either way.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import type { ImportView } from '../../server/services/imports/imports.js';
import { IDENTIFIED, importsBackend, type ImportPath } from '../backend/imports.js';
import { skippedSheetsText, type SkippedSheet } from '../../rules/files.js';
import { globals } from '../global.js';
import { EXIT } from '../output.js';
import { createReporter } from '../ui/reporter.js';

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

/** One result line per file. */
function summarize(view: ImportView) {
  const p = view.payload as {
    attached?: Array<{ fundRequestId: number; sdmType: string; rows: number }>;
    error?: string;
    duplicateOf?: number;
    unmatched?: Array<{ fundCode: string; sdmType: string }>;
    skippedSheets?: SkippedSheet[];
  };
  return {
    file: view.fileName,
    status: view.status,
    identifiedAs: view.type ?? '',
    funds: [...new Set((p.attached ?? []).map((a) => a.fundRequestId))].join(' '),
    problem:
      p.error ?? (p.duplicateOf ? `same file as import ${p.duplicateOf}` : (p.unmatched ?? []).map((u) => `unmatched ${u.sdmType} ${u.fundCode}`).join('; ')),
    // sheets of the workbook no layout matched ('Read Me', notes): not a failure, but named
    notUsed: skippedSheetsText(p.skippedSheets),
  };
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
      ui.task('Import', { status: 'running', note: `${files.length} file(s)` });
      const rows = await importsBackend(g).importFiles(opts.tpa, files, { wait: opts.wait, timeoutS: Number(opts.timeout) });
      const identified = rows.filter((r) => IDENTIFIED.includes(r.status)).length;
      ui.task('Import', { status: 'done', note: `${files.length} file(s)` });
      ui.task('identification', { total: rows.length, done: identified, status: identified === rows.length ? 'done' : 'running' });
      const table = rows.map(summarize);
      ui.table(table, ['file', 'status', 'identifiedAs', 'funds', 'problem', ...(table.some((t) => t.notUsed) ? ['notUsed' as const] : [])]);
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

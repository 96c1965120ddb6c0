/**
 * `fund-audit bulk-upload FILE`: validate a bulk-upload CSV, show accepted / editable / declined rows
 * with their errors, and save the rows in batches of 100 (the spec's save limit). Works on the local
 * data directory or, with --server, through the API (cli/backend/bulk-upload.ts), with the same output.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../server/errors.js';
import { MAX_BULK_SAVE, type BulkResultRow, type FailedFund, type SavedFund } from '../../server/services/bulk-upload/bulk-upload.js';
import { bulkUploadBackend } from '../backend/bulk-upload.js';
import { globals } from '../global.js';
import { EXIT } from '../output.js';
import { createReporter } from '../ui/reporter.js';

const issues = (r: BulkResultRow) => [...r.errors.faults.map((f) => f.message), ...r.errors.warnings.map((w) => `warning: ${w.message}`)].join('; ');

export function registerBulkUpload(program: Command): void {
  program
    .command('bulk-upload')
    .description('Validate a bulk-upload CSV of fund requests and save its rows in batches of 100')
    .argument('<file>', 'the .csv file (template: GET /api/v2.0/fund-request/download)')
    .option('--dry-run', 'validate only; exit 0 when every row is valid')
    .option('--request-date <date>', 'request date of the saved funds (YYYY-MM-DD or DD/MM/YYYY; default today)')
    .option('--overwrite', 'overwrite existing requests with the same TPA, fund code and period end (rows with that warning)')
    .addHelpText('after', '\nExit codes: 0 every row saved (or valid with --dry-run); 3 some rows declined or not saved; see docs/cli.md.')
    .action(async (file: string, opts, cmd: Command) => {
      const g = globals(cmd);
      const fileName = basename(file);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (err) {
        throw new ValidationError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      const backend = await bulkUploadBackend(g);
      const ui = await createReporter({ json: !!g.json });
      try {
        ui.task(`Validate ${fileName}`, { status: 'running' });
        const result = await backend.validate(fileName, bytes);
        const rows = [...result.accepted, ...result.editable, ...result.declined].sort((a, b) => a.columnName - b.columnName);
        ui.task(`Validate ${fileName}`, {
          status: 'done',
          note: `${result.accepted.length} accepted, ${result.editable.length} editable, ${result.declined.length} declined`,
        });
        ui.table(
          rows.map((r) => ({
            row: r.columnName,
            status: r.frBulkuploadStatus,
            tpa: r.tpa,
            fundCode: r.fundShortCode,
            fundName: r.fundName,
            errors: issues(r),
          })),
          ['row', 'status', 'tpa', 'fundCode', 'fundName', 'errors'],
        );
        const toSave = [...result.accepted, ...(opts.overwrite ? result.editable.map((r) => ({ ...r, isEditable: true })) : [])];
        const saved: SavedFund[] = [];
        const failed: FailedFund[] = [];
        if (!opts.dryRun && toSave.length) {
          ui.task('Save fund requests', { status: 'running', done: 0, total: toSave.length });
          for (let i = 0; i < toSave.length; i += MAX_BULK_SAVE) {
            const batch = await backend.save(opts.requestDate, toSave.slice(i, i + MAX_BULK_SAVE));
            saved.push(...batch.saved);
            failed.push(...batch.failed);
            ui.task('Save fund requests', { done: Math.min(i + MAX_BULK_SAVE, toSave.length) });
          }
          ui.task('Save fund requests', { status: failed.length ? 'error' : 'done', note: `${saved.length} saved, ${failed.length} failed` });
        }
        const notSaved = result.declined.length + (opts.overwrite ? 0 : result.editable.length) + failed.length;
        const problems = [
          ...result.declined.map((r) => `row ${r.columnName}: ${r.errors.faults.map((f) => f.message).join('; ')}`),
          ...(opts.overwrite ? [] : result.editable.map((r) => `row ${r.columnName}: ${r.errors.warnings.map((w) => w.message).join('; ')}`)),
          ...failed.map((f) => `row ${f.fund.columnName}: ${f.errors.faults.map((x) => x.message).join('; ')}`),
        ];
        if (problems.length)
          ui.errors(
            problems,
            result.editable.length && !opts.overwrite
              ? 'fix the declined rows and upload again; add --overwrite to replace existing requests'
              : 'fix these rows in the file and upload it again',
          );
        await ui.finish({
          fileName,
          encoding: result.encoding,
          totalRows: result.totalRows,
          accepted: result.accepted.length,
          editable: result.editable.length,
          declined: result.declined.length,
          saved,
          failed,
          dryRun: !!opts.dryRun,
          rows,
        });
        const ok = opts.dryRun ? result.declined.length === 0 && (opts.overwrite || result.editable.length === 0) : notSaved === 0;
        if (!ok) process.exitCode = EXIT.invalid;
      } finally {
        await backend.close();
      }
    });
}

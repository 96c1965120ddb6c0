/**
 * `fund-audit export --funds 1,2 --stages visualization,calculations -o out.zip`: one zip of fund
 * outputs (DOMAIN.md 2.6), through the export backend (cli/backend/export.ts): locally the export is
 * requested and run at once on the data directory; with `--server URL --token KEY` it is queued on
 * the server, polled until done or error (`--timeout` seconds, default 300) and downloaded.
 * Exit codes: 0 zip written; 3 invalid input (unknown fund or stage); 1 the export failed.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { AppError, NotFoundError, ValidationError } from '../../server/errors.js';
import { EXPORT_STAGE_CODES } from '../../server/services/exports/exports.js';
import { exportBackend, type ExportBackend as Backend, type ExportRow } from '../backend/export.js';
import { globals } from '../global.js';
import { createReporter } from '../ui/reporter.js';

interface ExportOptions {
  funds: string;
  stages: string;
  output: string;
  excludeDisabled?: boolean;
  reviewedOnly?: boolean;
  timeout: string;
}

function parseIds(value: string): number[] {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.filter((v) => !/^\d+$/.test(v) || Number(v) < 1);
  if (!parts.length || bad.length)
    throw new ValidationError(`--funds must list fund request ids separated by commas${bad.length ? `: not an id: ${bad.join(', ')}` : ''}`);
  return parts.map(Number);
}

function parseStages(value: string): string[] {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.includes('all') ? [...EXPORT_STAGE_CODES] : parts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the export is done or error, or the deadline passes. */
async function waitFor(backend: Backend, id: number, timeoutMs: number): Promise<ExportRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await backend.status(id);
    if (!view) throw new NotFoundError(`No such export with id: ${id}`);
    if (view.status === 'done' || view.status === 'error') return view;
    if (Date.now() >= deadline)
      throw new AppError(
        `Export ${id} did not finish within ${Math.round(timeoutMs / 1000)} s (status: ${view.status}); it stays in the queue, download it later from the Downloads Queue`,
        504,
      );
    await sleep(Math.min(backend.pollMs, Math.max(0, deadline - Date.now())));
  }
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Download outputs of fund requests as one zip (work papers, calculations, standardized and identified data, raw files, fund list)')
    .requiredOption('--funds <ids>', 'fund request ids, separated by commas')
    .requiredOption('--stages <stages>', `stages, separated by commas: ${EXPORT_STAGE_CODES.join(', ')}, or all`)
    .requiredOption('-o, --output <file>', 'the zip file to write')
    .option('--exclude-disabled', 'leave out disabled (not required) work papers')
    .option('--reviewed-only', 'only reviewed work papers')
    .option('--timeout <seconds>', 'with --server: longest wait for the export to finish', '300')
    .addHelpText('after', '\nExit codes: 0 zip written; 3 invalid input (unknown fund request or stage); 1 the export failed; see docs/cli.md.')
    .action(async (opts: ExportOptions, cmd: Command) => {
      const g = globals(cmd);
      const input = {
        fundRequests: parseIds(opts.funds),
        fundRequestStages: parseStages(opts.stages),
        excludeDisabledVisualizations: !!opts.excludeDisabled,
        reviewedVisualizationsOnly: !!opts.reviewedOnly,
      };
      const timeout = Number(opts.timeout);
      if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 86_400) throw new ValidationError('--timeout must be a number of seconds from 1 to 86400');
      const out = resolve(opts.output);
      if (!existsSync(dirname(out))) throw new ValidationError(`Cannot write ${opts.output}: the folder ${dirname(out)} does not exist`);
      const backend = await exportBackend(g);
      const ui = await createReporter({ json: !!g.json });
      const part = `${out}.part`;
      try {
        ui.task('Request export', { status: 'running' });
        const queued = await backend.request(input);
        ui.task('Request export', {
          status: 'done',
          note: `export ${queued.id}: ${input.fundRequests.length} fund request(s), ${queued.payload.inputs.fundRequestStages.join(', ')}`,
        });
        ui.task('Build zip', { status: 'running', note: 'pending' });
        await backend.run();
        const view = await waitFor(backend, queued.id, timeout * 1000);
        if (view.status === 'error') throw new AppError(`Export ${view.id} failed: ${view.payload.error ?? 'unknown error'}`, 500);
        ui.task('Build zip', { status: 'done', note: `${view.payload.files ?? 0} files` });
        ui.task(`Write ${opts.output}`, { status: 'running' });
        const size = await backend.save(view.id, part);
        renameSync(part, out);
        ui.task(`Write ${opts.output}`, { status: 'done', note: `${size} bytes` });
        await ui.finish({
          id: view.id,
          status: view.status,
          file: out,
          fileName: view.fileName,
          size,
          files: view.payload.files ?? null,
          warnings: view.payload.warnings ?? [],
        });
      } catch (err) {
        rmSync(part, { force: true });
        if (!g.json) await ui.finish(null); // ends the terminal view; main() prints the error
        throw err;
      } finally {
        await backend.close();
      }
    });
}

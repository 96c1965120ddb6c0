/**
 * How a command shows progress: an Ink view in a terminal, plain lines when output is piped or in
 * CI (no raw mode, nothing read from stdin), nothing but the final JSON with `--json`.
 */
import React from 'react';
import { ErrorList, Table, TaskList, type TaskState } from './views.js';
import { displayCell } from '../../rules/dates.js';

export interface Reporter {
  /** Creates or updates a task line. */
  task(label: string, update: Partial<Omit<TaskState, 'label'>>): void;
  /** Shows a table (after the tasks). */
  table(rows: Array<Record<string, unknown>>, columns: string[]): void;
  /** Shows errors with the next step. */
  errors(errors: string[], next?: string): void;
  /** Final output: JSON with --json, else nothing more. Ends the view. */
  finish(result: unknown): Promise<void>;
}

/** Picks the reporter for the current output. */
export async function createReporter(opts: { json: boolean; interactive?: boolean }): Promise<Reporter> {
  if (opts.json) return jsonReporter();
  if (opts.interactive ?? (process.stdout.isTTY && !process.env.CI)) return inkReporter();
  return plainReporter();
}

function jsonReporter(): Reporter {
  return {
    task() {},
    table() {},
    errors() {},
    async finish(result) {
      process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    },
  };
}

function plainReporter(): Reporter {
  const last = new Map<string, string>();
  return {
    task(label, u) {
      const line = `${label}: ${u.status ?? 'running'}${u.total ? ` ${u.done ?? 0}/${u.total}` : ''}${u.note ? ` (${u.note})` : ''}`;
      if (last.get(label) !== line) process.stdout.write(line + '\n');
      last.set(label, line);
    },
    table(rows, columns) {
      const cell = displayCell;
      const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
      process.stdout.write(
        columns
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd() + '\n',
      );
      for (const r of rows)
        process.stdout.write(
          columns
            .map((c, i) => cell(r[c]).padEnd(widths[i]))
            .join('  ')
            .trimEnd() + '\n',
        );
    },
    errors(errors, next) {
      for (const e of errors) process.stderr.write(`✘ ${e}\n`);
      if (next) process.stderr.write(`→ ${next}\n`);
    },
    async finish() {},
  };
}

async function inkReporter(): Promise<Reporter> {
  const { render } = await import('ink');
  const tasks: TaskState[] = [];
  let table: { rows: Array<Record<string, unknown>>; columns: string[] } | null = null;
  let errs: { errors: string[]; next?: string } | null = null;
  const view = () => (
    <>
      <TaskList tasks={[...tasks]} />
      {table && <Table rows={table.rows} columns={table.columns} />}
      {errs && <ErrorList errors={errs.errors} next={errs.next} />}
    </>
  );
  const app = render(view(), { patchConsole: false, exitOnCtrlC: true });
  const redraw = () => app.rerender(view());
  return {
    task(label, u) {
      const t = tasks.find((x) => x.label === label);
      if (t) Object.assign(t, u);
      else tasks.push({ label, done: 0, total: 0, status: 'running', ...u });
      redraw();
    },
    table(rows, columns) {
      table = { rows, columns };
      redraw();
    },
    errors(errors, next) {
      errs = { errors, next };
      redraw();
    },
    async finish() {
      redraw();
      app.unmount();
      await app.waitUntilExit();
    },
  };
}

/**
 * Shows one table: the Ink table in a terminal, aligned plain text otherwise (pipes, CI). Commands
 * that only list data use it so every table looks the same.
 */
export async function showTable(rows: Array<Record<string, unknown>>, columns?: string[]): Promise<void> {
  const cols = columns ?? (rows[0] ? Object.keys(rows[0]) : []);
  if (!rows.length) {
    process.stdout.write('(none)\n');
    return;
  }
  const ui = await createReporter({ json: false });
  ui.table(rows, cols);
  await ui.finish(null);
}

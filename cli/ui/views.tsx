/**
 * Ink pieces shared by the commands: a task list with progress bars, a table, and an error list
 * with the next step to take. Used only when stdout is a terminal; see reporter.ts.
 */
import { Box, Text } from 'ink';
import React from 'react';
import { displayCell } from '../../rules/dates.js';

export interface TaskState {
  label: string;
  done: number;
  total: number;
  status: 'pending' | 'running' | 'done' | 'error';
  note?: string;
}

/** A text progress bar of a fixed width. */
export function ProgressBar({ done, total, width = 30 }: { done: number; total: number; width?: number }) {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return (
    <Text>
      <Text color="green">{'█'.repeat(filled)}</Text>
      <Text color="gray">{'░'.repeat(width - filled)}</Text>
      <Text>
        {' '}
        {done}/{total}
      </Text>
    </Text>
  );
}

const ICON: Record<TaskState['status'], string> = { pending: '·', running: '›', done: '✔', error: '✘' };
const COLOR: Record<TaskState['status'], string> = { pending: 'gray', running: 'cyan', done: 'green', error: 'red' };

/** A list of tasks, each with its progress. */
export function TaskList({ tasks }: { tasks: TaskState[] }) {
  return (
    <Box flexDirection="column">
      {tasks.map((t) => (
        <Box key={t.label} gap={1}>
          <Text color={COLOR[t.status]}>{ICON[t.status]}</Text>
          <Box width={34}>
            <Text>{t.label}</Text>
          </Box>
          {t.total > 0 && <ProgressBar done={t.done} total={t.total} />}
          {t.note && <Text color="gray">{t.note}</Text>}
        </Box>
      ))}
    </Box>
  );
}

/** A table with aligned columns; long cells are cut. */
export function Table({ rows, columns, max = 40 }: { rows: Array<Record<string, unknown>>; columns: string[]; max?: number }) {
  const cell = (v: unknown) => {
    const s = displayCell(v);
    return s.length > max ? s.slice(0, max - 1) + '…' : s;
  };
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{columns.map((c, i) => c.padEnd(widths[i])).join('  ')}</Text>
      {rows.map((r, j) => (
        <Text key={j}>{columns.map((c, i) => cell(r[c]).padEnd(widths[i])).join('  ')}</Text>
      ))}
    </Box>
  );
}

/** Errors with the next step to take. */
export function ErrorList({ errors, next }: { errors: string[]; next?: string }) {
  if (!errors.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {errors.map((e, i) => (
        <Text key={i} color="red">
          ✘ {e}
        </Text>
      ))}
      {next && <Text color="yellow">→ {next}</Text>}
    </Box>
  );
}

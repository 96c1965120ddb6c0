/**
 * The server's log files for the developer logs tab (delivery spec "Developer tools": log files to
 * download and a tail viewer taking a file and a line count; section 7 `POST /logs/list`,
 * `POST /logs/last-lines {count, file}` (default 100 lines), `GET logs/download/?file&token`).
 * Log files are the files of `<data dir>/logs` (pino JSON lines, `fund-audit.log`); a file is
 * named by its plain name, never by a path.
 */
import { closeSync, createReadStream, existsSync, openSync, readdirSync, readSync, statSync, type ReadStream } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../context.js';
import { NotFoundError, ValidationError } from '../../errors.js';

/** Tail length when none is given (spec: default tail 100 lines). */
export const DEFAULT_TAIL_LINES = 100;
/** Longest tail served at once. */
export const MAX_TAIL_LINES = 10_000;

export interface LogFile {
  file: string;
  size: number;
  modified: string;
}

/** The folder of the log files. */
export const logsDir = (ctx: AppContext) => join(ctx.config.dataDir, 'logs');

/** Log files, most recently written first. */
export function listLogFiles(ctx: AppContext): LogFile[] {
  const dir = logsDir(ctx);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => ({ file, stat: statSync(join(dir, file)) }))
    .filter((f) => f.stat.isFile())
    .map((f) => ({ file: f.file, size: f.stat.size, modified: f.stat.mtime.toISOString() }))
    .sort((a, b) => b.modified.localeCompare(a.modified) || a.file.localeCompare(b.file));
}

/**
 * The path of a log file by its name.
 * @throws ValidationError for a name with a path in it; NotFoundError for a file that is not a log file
 */
function logPath(ctx: AppContext, file: string): string {
  if (!file || file !== file.trim() || /[\\/]|^\.\.?$/.test(file))
    throw new ValidationError(`'${file}' is not a log file name`, ['Give the name of a log file as listed, without a folder']);
  if (!listLogFiles(ctx).some((f) => f.file === file)) throw new NotFoundError(`No log file named ${file}`);
  return join(logsDir(ctx), file);
}

/**
 * The last lines of a log file, oldest first; reads backwards from the end, so a large file costs
 * only what is shown.
 * @param input.count lines wanted (1 to 10,000; default 100)
 * @returns the lines and whether the file holds more before them
 * @throws ValidationError for a bad count or name; NotFoundError for an unknown file
 */
export function lastLines(
  ctx: AppContext,
  input: { file: string; count?: number },
): { file: string; count: number; lines: string[]; truncated: boolean; size: number } {
  const count = input.count ?? DEFAULT_TAIL_LINES;
  if (!Number.isInteger(count) || count < 1 || count > MAX_TAIL_LINES)
    throw new ValidationError(`The line count must be a whole number from 1 to ${MAX_TAIL_LINES} (got ${input.count})`);
  const path = logPath(ctx, input.file);
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const chunk = 64 * 1024;
    let pos = size;
    let text = '';
    // read chunks from the end until the text holds count + 1 line breaks or the file is read
    while (pos > 0 && (text.match(/\n/g)?.length ?? 0) <= count) {
      const len = Math.min(chunk, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, pos);
      text = buf.toString('utf8') + text;
    }
    const all = text.replace(/\n$/, '').split('\n');
    if (pos > 0 || all.length > count) {
      // the first line may be cut: drop what lies before the last `count`
      const lines = all.slice(-count);
      return { file: input.file, count, lines, truncated: true, size };
    }
    return { file: input.file, count, lines: all.filter((l, i) => l !== '' || i < all.length - 1), truncated: false, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a log file for download.
 * @throws ValidationError for a bad name; NotFoundError for an unknown file
 */
export function openLogFile(ctx: AppContext, file: string): { fileName: string; size: number; open: () => ReadStream } {
  const path = logPath(ctx, file);
  return { fileName: file, size: statSync(path).size, open: () => createReadStream(path) };
}

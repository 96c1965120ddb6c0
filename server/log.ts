/**
 * Logging with pino. A server or worker process writes to stdout: readable lines when stdout is a
 * terminal (pino-pretty as a stream, which also works inside a bundle), JSON lines otherwise
 * (journald, `docker logs`). Optionally (`logFile`, on by default) JSON lines also go to
 * `<dataDir>/logs/fund-audit.log`: the server process rotates it by size (rotating-file-stream,
 * `fund-audit.log.1` ... `.N`); other writers (job threads, `worker` processes, CLI commands)
 * append and reopen the file when it was rotated under them.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { createStream } from 'rotating-file-stream';

export type { Logger };

/** Name of the log file inside `<dataDir>/logs`. */
export const LOG_FILE = 'fund-audit.log';

/** How often an appending writer checks whether the log file was rotated, in ms. */
const REOPEN_CHECK_MS = 5000;

export interface LoggerOptions {
  dataDir: string;
  /** pino level, or 'silent' */
  level: string;
  /** Also write to stdout: readable on a terminal, JSON lines otherwise (default false). */
  terminal?: boolean;
  /** Write `<dataDir>/logs/fund-audit.log` (default true). */
  file?: boolean;
  /** Rotate the file when it reaches this size (`10M`; K, M or G); only the file's owner rotates. Unset: append only. */
  rotateSize?: string;
  /** Rotated files kept (default 10). */
  keep?: number;
}

/** An appending destination that reopens the file when another writer rotated it away. */
function appendingFile(file: string): pino.DestinationStream {
  const dest = pino.destination({ dest: file, sync: true, mkdir: true });
  let inode = statSync(file).ino;
  const timer = setInterval(() => {
    try {
      const now = statSync(file).ino;
      if (now !== inode) {
        dest.reopen();
        inode = statSync(file).ino;
      }
    } catch {
      // rotated away and not recreated yet: reopening creates it
      dest.reopen();
    }
  }, REOPEN_CHECK_MS);
  timer.unref();
  return dest;
}

/**
 * Creates the application logger.
 * @param opts see LoggerOptions; with neither terminal nor file the logger writes nowhere
 */
export function createLogger(opts: LoggerOptions): Logger {
  const streams: pino.StreamEntry[] = [];
  if (opts.file !== false) {
    const dir = join(opts.dataDir, 'logs');
    mkdirSync(dir, { recursive: true });
    const stream = opts.rotateSize
      ? createStream(LOG_FILE, { path: dir, size: opts.rotateSize as `${number}M`, rotate: opts.keep ?? 10 })
      : appendingFile(join(dir, LOG_FILE));
    streams.push({ level: 'trace', stream });
  }
  if (opts.terminal) {
    streams.push({
      level: 'trace',
      stream: process.stdout.isTTY
        ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' })
        : pino.destination({ dest: 1, sync: true }),
    });
  }
  return pino({ level: opts.level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
}

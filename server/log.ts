/**
 * Logging with pino: JSON lines into `<dataDir>/logs/fund-audit.log`, and readable lines on the
 * terminal when stdout is one (pino-pretty as a stream, which also works inside a bundle).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * Creates the application logger.
 * @param opts.dataDir logs go to `<dataDir>/logs/fund-audit.log`
 * @param opts.level pino level, or 'silent'
 * @param opts.terminal also print to stdout (default: when stdout is a TTY)
 */
export function createLogger(opts: { dataDir: string; level: string; terminal?: boolean }): Logger {
  const dir = join(opts.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const streams: pino.StreamEntry[] = [{ level: 'trace', stream: pino.destination({ dest: join(dir, 'fund-audit.log'), sync: true }) }];
  if (opts.terminal ?? process.stdout.isTTY) {
    streams.push({ level: 'trace', stream: pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) });
  }
  return pino({ level: opts.level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
}

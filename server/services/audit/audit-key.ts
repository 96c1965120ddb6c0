/**
 * The secret key of the audit log's hash chain, kept outside the database so that someone who can
 * write to the database cannot rewrite the log and compute matching hashes: the setting
 * `auditLogKey` (`FUND_AUDIT_AUDIT_LOG_KEY`, at least 32 characters; the same on every node of a
 * PostgreSQL install), else the file `<data dir>/audit-log.key`, made with 32 random bytes (mode
 * 0600) at first use. And the log's head as this node last wrote it, `<data dir>/audit-log.head`
 * (`<id> <hash>`), which shows a log cut short even when the database's own counters were reset.
 * docs/configuration.md ("Audit log key") and docs/operations.md (backing the key up).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config.js';

/** The key file's name in the data directory. */
export const KEY_FILE = 'audit-log.key';
/** The head file's name in the data directory. */
export const HEAD_FILE = 'audit-log.head';

const keys = new Map<string, Buffer>();

/**
 * The audit-log key of a configuration: `auditLogKey`, else the data directory's key file (made
 * when missing; of two processes making it at once, one file wins and both use it).
 * @throws Error when the key file cannot be read or written (permissions), naming it
 */
export function auditKey(config: Pick<AppConfig, 'auditLogKey' | 'dataDir'>): Buffer {
  if (config.auditLogKey) return Buffer.from(config.auditLogKey, 'utf8');
  const file = join(config.dataDir, KEY_FILE);
  const known = keys.get(file);
  if (known) return known;
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`The audit-log key file ${file} holds fewer than 32 characters: restore it from its backup`);
  const key = Buffer.from(text, 'utf8');
  keys.set(file, key);
  return key;
}

/** HMAC-SHA256 of a text with the key, hex. */
export const keyedDigest = (key: Buffer, text: string): string => createHmac('sha256', key).update(text).digest('hex');

/** A short fingerprint of the key (not the key): which key an entry was written with, for messages. */
export const keyFingerprint = (key: Buffer): string => keyedDigest(key, 'fund-audit audit-log key').slice(0, 16);

/** The head of the log as this node last wrote it, or null (none written yet, or unreadable). */
export function readHead(dataDir: string): { id: number; hash: string } | null {
  try {
    const [id, hash] = readFileSync(join(dataDir, HEAD_FILE), 'utf8').trim().split(' ');
    return id && hash && Number.isInteger(Number(id)) ? { id: Number(id), hash } : null;
  } catch {
    return null;
  }
}

/** Records an entry just appended as the head (never moving it back to an older entry). */
export function writeHead(dataDir: string, head: { id: number; hash: string }): void {
  const current = readHead(dataDir);
  if (current && current.id >= head.id) return;
  const file = join(dataDir, HEAD_FILE);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${head.id} ${head.hash}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * The blob files of an install moved to another blob directory: each copied into the target's
 * `tmp/` while its sha256 is computed, then renamed into place (the same atomic write as the blob
 * store's), and checked again by reading the target back.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { hashingStream } from '../../lib/hashing-stream.js';

/** Blob keys in a store (`<root>/<xx>/<sha256>`), sorted, skipping its tmp folder. */
export function listBlobKeys(root: string): string[] {
  if (!existsSync(root)) return [];
  const keys: string[] = [];
  for (const dir of readdirSync(root).sort()) {
    if (!/^[a-f0-9]{2}$/.test(dir)) continue;
    for (const key of readdirSync(join(root, dir)).sort()) if (/^[a-f0-9]{64}$/.test(key) && key.startsWith(dir)) keys.push(key);
  }
  return keys;
}

const blobFile = (root: string, key: string) => join(root, key.slice(0, 2), key);

/** The sha256 (hex) and size in bytes of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Copies one blob into `to` unless it is there already, checking the hash of what was read.
 * @returns the blob's size in bytes and whether it was copied now
 * @throws Error when the source's content no longer matches its name (a damaged blob)
 */
export async function copyBlob(from: string, to: string, key: string): Promise<{ size: number; copied: boolean }> {
  const dest = blobFile(to, key);
  if (existsSync(dest)) return { size: (await hashFile(dest)).size, copied: false };
  mkdirSync(join(to, 'tmp'), { recursive: true });
  mkdirSync(join(to, key.slice(0, 2)), { recursive: true });
  const tmp = join(to, 'tmp', `${key}.${randomBytes(6).toString('hex')}`);
  const meter = hashingStream();
  let size = 0;
  try {
    await pipeline(createReadStream(blobFile(from, key)), meter, createWriteStream(tmp));
    const got = meter.digest();
    size = got.size;
    const sha256 = got.sha256;
    if (sha256 !== key) throw new Error(`The blob ${key} of ${from} is damaged: its content hashes to ${sha256}`);
    renameSync(tmp, dest);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { size, copied: true };
}

/**
 * Reads every blob of `keys` back from `root` and compares its hash with its name.
 * @returns the keys that are missing or whose content differs (empty when all are intact)
 */
export async function verifyBlobs(root: string, keys: string[]): Promise<string[]> {
  const bad: string[] = [];
  for (const key of keys) {
    const file = blobFile(root, key);
    if (!existsSync(file) || (await hashFile(file)).sha256 !== key) bad.push(key);
  }
  return bad;
}

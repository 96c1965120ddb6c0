/**
 * A blob store outside the data directory (`blobDir`, `--blob-dir`, `FUND_AUDIT_BLOB_DIR`), as
 * several nodes share one: the server, its job threads and the CLI store every file there and
 * serve it from there, the data directory has no blobs folder, and a backup holds the blobs and
 * restores them where the setting of the restored install says.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { runCli, runCliAsync, startServe, until } from './testing/cli.js';
import { signIn } from './testing/server.js';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Blob keys the database of a data directory refers to (raw deliveries and stored outputs). */
function referencedKeys(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (
      db.prepare("select sha256 k from import_files union select blob_key from fund_files where blob_key is not null and kind != 'staging'").all() as Array<{
        k: string;
      }>
    ).map((r) => r.k);
  } finally {
    db.close();
  }
}

describe('a blob directory outside the data directory', () => {
  it('stores, processes, serves, backs up and restores files there; the data directory has no blobs folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-blobdir-data-'));
    const shared = mkdtempSync(join(tmpdir(), 'fa-blobdir-shared-'));
    const env = { FUND_AUDIT_WORKERS: '1', FUND_AUDIT_DEMO_DELIVERIES: 'true' };
    // the server with the flag: its job threads run the demo deliveries on the same blob root
    const serve = await startServe(dir, ['--blob-dir', shared], env);
    const dbFile = join(dir, 'fund-audit.sqlite');
    let fundId: number;
    try {
      const live = new Database(dbFile, { readonly: true });
      fundId = await until(
        'the demo deliveries to be processed',
        () => {
          const open = live.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number };
          if (open.n) return null;
          const wp = live.prepare("select fund_request_id id from fund_files where kind = 'work_paper' and blob_key is not null limit 1").get() as
            | { id: number }
            | undefined;
          return wp?.id ?? null;
        },
        120_000,
      );
      const failed = live.prepare("select stage, status from processes where status not in ('done', 'success', 'ignored')").all();
      live.close();
      expect(failed).toEqual([]);

      // an export zip, written by a job thread into the shared store and downloaded from the server
      const token = await signIn(serve.url, serve.link!);
      const call = async (path: string, body?: unknown) =>
        (
          await fetch(new URL(`/api/v2.0/${path}`, serve.url), {
            method: body === undefined ? 'GET' : 'POST',
            headers: { 'x-access-token': token, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).json();
      await call('export/files', { fundRequests: [fundId], fundRequestStages: ['visualization'] });
      let exp: { id: number; status: string } | undefined;
      for (const end = Date.now() + 60_000; exp?.status !== 'done' && Date.now() < end; await new Promise((r) => setTimeout(r, 200)))
        [exp] = (await call('export/files/list', {})).payload.rows;
      expect(exp?.status).toBe('done');
      const dl = (await call('export/token')).payload.token;
      const zip = await fetch(new URL(`/api/v2.0/export/file/${exp!.id}?token=${dl}`, serve.url));
      expect(zip.status).toBe(200);
      const bytes = Buffer.from(await zip.arrayBuffer());
      expect(bytes.subarray(0, 2).toString()).toBe('PK');
      const zipKey = createHash('sha256').update(bytes).digest('hex');
      expect(existsSync(join(shared, zipKey.slice(0, 2), zipKey))).toBe(true);
    } finally {
      await serve.stop();
    }

    // the CLI with the environment variable: an import stored in the same place
    const delivery = join(fixturesDir(), 'tpas/demo_test/inputs/demo_holdings.csv');
    const imported = runCli(['-d', dir, 'import', '--tpa', 'demo_test', '--no-wait', delivery], { FUND_AUDIT_BLOB_DIR: shared });
    expect(imported.status, imported.stderr).toBe(0);
    const key = sha(delivery);
    expect(sha(join(shared, key.slice(0, 2), key))).toBe(key);

    const keys = referencedKeys(dbFile);
    expect(keys.length).toBeGreaterThan(3);
    for (const k of keys) expect(sha(join(shared, k.slice(0, 2), k)), k).toBe(k);
    expect(existsSync(join(dir, 'blobs'))).toBe(false);

    // a backup holds the shared blobs; a restore puts them where the restored install's setting says
    const zipFile = join(mkdtempSync(join(tmpdir(), 'fa-blobdir-backup-')), 'backup.zip');
    const backup = await runCliAsync(['-d', dir, '--json', 'backup', '--to', zipFile], { FUND_AUDIT_BLOB_DIR: shared });
    expect(backup.status, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout).blobs).toBeGreaterThanOrEqual(new Set(keys).size);
    const target = mkdtempSync(join(tmpdir(), 'fa-blobdir-restored-'));
    const otherShared = mkdtempSync(join(tmpdir(), 'fa-blobdir-shared2-'));
    const restored = runCli(['--json', 'restore', zipFile, '--data-dir', target, '--blob-dir', otherShared]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).missingBlobs).toEqual([]);
    for (const k of keys) expect(sha(join(otherShared, k.slice(0, 2), k)), k).toBe(k);
    expect(existsSync(join(target, 'blobs'))).toBe(false);
  }, 240_000);
});

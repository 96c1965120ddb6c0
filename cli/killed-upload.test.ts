/**
 * An upload a server was receiving when it was killed (kill -9, nothing cleaned up), with real
 * processes: the part already streamed to disk stays in the blob store's tmp folder until the
 * next start of a server on the data directory, which removes it.
 */
import { request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, type Served } from './testing/cli.js';
import { signIn } from './testing/server.js';

const dir = mkdtempSync(join(tmpdir(), 'fa-killed-upload-'));
const servers: Served[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const tmpFiles = () => readdirSync(join(dir, 'blobs', 'tmp'));

/** The access token of a session on `server`, signed in with its printed link. */
const sessionOf = (server: Served): Promise<string> => signIn(server.url, server.link!);

describe('an upload cut off by a killed server', () => {
  it('leaves its part in blobs/tmp until the next start removes it', async () => {
    const first = await startServe(dir, ['--no-demo-data', '--workers', '0']);
    servers.push(first);
    const token = await sessionOf(first);
    // an import whose body keeps coming: its first megabyte is written to a temporary file
    const boundary = '----fund-audit-killed';
    const req = request(`${first.url}/api/v2.0/import/files`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-access-token': token, 'transfer-encoding': 'chunked' },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="administrator"\r\n\r\ndemo_test\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="MFS_TB_big.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    req.write(`Account,Balance\r\n${'1000,1.00\r\n'.repeat(100_000)}`);
    await expect.poll(() => tmpFiles().length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    const left = tmpFiles();
    expect(await first.stop('SIGKILL')).toBe(null);
    req.destroy();
    expect(tmpFiles()).toEqual(left);

    const second = await startServe(dir, ['--no-demo-data', '--workers', '0', '--no-signin-link']);
    servers.push(second);
    expect(tmpFiles().filter((f) => left.includes(f))).toEqual([]);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  }, 60_000);
});

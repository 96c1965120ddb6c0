/**
 * Temporary files left by a process killed mid-upload are removed when a server or worker starts;
 * those of a live process (this one, or another host's on a shared blob directory) are kept.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tmpTag } from './blobs.js';
import { startRuntime } from './runtime.js';
import { createTestContext, type TestContext } from './testing/context.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false, workers: 0 });
});
afterEach(() => ctx.dispose());

/** The pid and kernel start time of a process that has ended (a server killed mid-upload). */
function endedProcess(): { pid: number; start: string } {
  const out = spawnSync(
    process.execPath,
    ['-e', "const s=require('fs').readFileSync('/proc/self/stat','utf8');console.log(process.pid, s.slice(s.lastIndexOf(')')+2).split(' ')[19])"],
    {
      encoding: 'utf8',
    },
  );
  const [pid, start] = out.stdout.trim().split(' ');
  return { pid: Number(pid), start: start! };
}

describe('temporary files at start', () => {
  it("removes those of a process that ended, keeps this process's and, until they are a day old, other hosts'", async () => {
    const tmp = join(ctx.blobs.root, 'tmp');
    const dead = endedProcess();
    const killedUpload = join(tmp, `${tmpTag(dead.pid, dead.start)}0a1b2c.upload`);
    writeFileSync(killedUpload, 'half of a trial balance');
    const ours = ctx.blobs.tmpPath('.upload');
    writeFileSync(ours, 'an upload in progress');
    const otherHost = join(tmp, `${tmpTag(4242, '99', 'node-b.example')}3d4e5f.upload`);
    writeFileSync(otherHost, 'node b is receiving this');
    const staleOtherHost = join(tmp, `${tmpTag(4343, '99', 'node-c.example')}6a7b8c.part`);
    writeFileSync(staleOtherHost, 'node c died two days ago');
    const twoDaysAgo = (Date.now() - 48 * 3_600_000) / 1000;
    utimesSync(staleOtherHost, twoDaysAgo, twoDaysAgo);

    const runtime = startRuntime(ctx, { nodeId: 'tmp-test', sweeper: false });
    await runtime.stop();

    expect(existsSync(killedUpload)).toBe(false);
    expect(existsSync(staleOtherHost)).toBe(false);
    expect(readdirSync(tmp).sort()).toEqual([ours, otherHost].map((f) => f.slice(tmp.length + 1)).sort());
  });
});

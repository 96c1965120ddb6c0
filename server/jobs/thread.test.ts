/**
 * How a job thread lowers its CPU priority (thread.ts, decision 0016), tried in a child process
 * of its own: the call lowers the thread it runs on, here that process's main thread.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../paths.js';
import { JOB_THREAD_NICENESS, SCHED_IDLE } from './thread.js';

/** Runs `lowerThreadPriority` in a new Node process with `path` as its PATH; what it returned and the thread's niceness and policy after. */
function lowerInChild(path: string): { lowered: string | null; niceness: number; policy: number } {
  const code = `
    const { lowerThreadPriority, threadScheduling } = await import('./server/jobs/thread.ts');
    const lowered = lowerThreadPriority();
    console.log(JSON.stringify({ lowered, ...threadScheduling() }));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: appRoot(),
    env: { ...process.env, PATH: path },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe.runIf(process.platform === 'linux')('a job thread lowering its CPU priority', () => {
  it('moves to the idle policy with niceness 10 where chrt is found', () => {
    const hasChrt = spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;
    expect(hasChrt, 'util-linux chrt on this machine').toBe(true);
    expect(lowerInChild(process.env.PATH ?? '')).toEqual({ lowered: 'idle', niceness: JOB_THREAD_NICENESS, policy: SCHED_IDLE });
  });

  it('keeps niceness 10 at the normal policy where chrt cannot be run', () => {
    expect(lowerInChild('/nonexistent')).toEqual({ lowered: 'niceness', niceness: JOB_THREAD_NICENESS, policy: 0 });
  });
});

/**
 * CPU time of processes from /proc (Linux), for the benchmarks' "CPU a page": user + system time of
 * a process with all its threads, and of a PostgreSQL cluster (its postmaster, every live backend,
 * and the backends that ended since it started, which the postmaster reaped). CPU time is less
 * sensitive than wall time to other work sharing the cores: a page's CPU is the same whether the
 * page waited for a core or not. Elsewhere than on Linux every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second of /proc's times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS = 100;

/** The fields of /proc/<pid>/stat after the command name (field 3 onwards), or null when gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may hold spaces: the fields start after the last ')'
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime (fields 14, 15) and cutime + cstime (16, 17) of a process, in ms. */
function times(pid: number): { own: number; children: number } | null {
  const f = statFields(pid);
  if (!f) return null;
  // f[0] is field 3 (state): field n is f[n - 3]
  return { own: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS, children: ((Number(f[13]) + Number(f[14])) * 1000) / TICKS };
}

/** CPU time (ms) of a process and all its threads so far, or null when it is not readable. */
export function processCpuMs(pid: number): number | null {
  return times(pid)?.own ?? null;
}

/**
 * CPU time (ms) so far of a PostgreSQL cluster whose postmaster is `postmasterPid`: its own, its
 * live children's (backends, background workers), and the reaped children's.
 */
export function clusterCpuMs(postmasterPid: number): number | null {
  const main = times(postmasterPid);
  if (!main) return null;
  let total = main.own + main.children;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === postmasterPid) total += times(Number(name))?.own ?? 0;
  }
  return total;
}

/** The postmaster's pid of a data directory (first line of its `postmaster.pid`), or null. */
export function postmasterPidOf(dataDir: string): number | null {
  try {
    return Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

/** The CPU (ms) a piece of work took, from readings before and after it. */
export interface CpuMeter {
  /** Ends the measurement: ms of CPU of the node and of the cluster since `startCpuMeter`, null where unreadable. */
  stop(): { nodeMs: number | null; databaseMs: number | null };
}

/** The CPU (ms) of several processes together, null when one is not readable. */
function processesCpuMs(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

/** Starts measuring the CPU of node processes (one or several, summed) and of a cluster. */
export function startCpuMeter(nodePids: number | readonly number[], postmasterPid: number | null): CpuMeter {
  const pids = typeof nodePids === 'number' ? [nodePids] : nodePids;
  const node0 = processesCpuMs(pids);
  const db0 = postmasterPid ? clusterCpuMs(postmasterPid) : null;
  return {
    stop() {
      const node1 = processesCpuMs(pids);
      const db1 = postmasterPid ? clusterCpuMs(postmasterPid) : null;
      return {
        nodeMs: node0 !== null && node1 !== null ? node1 - node0 : null,
        databaseMs: db0 !== null && db1 !== null ? db1 - db0 : null,
      };
    },
  };
}

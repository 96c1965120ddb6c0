/** Types of scripts/pg-test-cluster.mjs (a throwaway PostgreSQL cluster for tests and benchmarks). */

/** The directory of PostgreSQL's initdb and pg_ctl (newest of /usr/lib/postgresql/*\/bin, else PATH), or null. */
export function findPgBin(): string | null;

/**
 * Starts a cluster in a temporary directory: its URL, the directory, and `stop()`, which stops it and removes the directory.
 * `settings` are server settings over the test defaults (e.g. `{ shared_buffers: '4GB' }`); `keep` a folder that holds the
 * cluster instead and outlives it (started again as it is when it holds one already: `reused`).
 */
export function startPgCluster(opts?: {
  settings?: Record<string, string>;
  keep?: string;
}): Promise<{ url: string; dir: string; reused: boolean; stop(): void | Promise<void> }>;

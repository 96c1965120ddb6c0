/** Types of scripts/pg-test-cluster.mjs (a throwaway PostgreSQL cluster for tests and benchmarks). */

/** The directory of PostgreSQL's initdb and pg_ctl (newest of /usr/lib/postgresql/*\/bin, else PATH), or null. */
export function findPgBin(): string | null;

/**
 * Starts a cluster in a temporary directory: its URL, the directory, and `stop()`, which stops it and removes the directory.
 * `settings` are server settings over the test defaults (e.g. `{ shared_buffers: '4GB' }`).
 */
export function startPgCluster(opts?: { settings?: Record<string, string> }): Promise<{ url: string; dir: string; stop(): void | Promise<void> }>;

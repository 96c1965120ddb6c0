/**
 * Vitest global setup: a throwaway PostgreSQL cluster for the run (scripts/pg-test-cluster.mjs),
 * its URL handed to the tests in `FUND_AUDIT_TEST_DATABASE_URL` (each test file makes its own
 * database in it). A URL already set is used as it is and nothing is started.
 *
 * Without PostgreSQL binaries: with `FUND_AUDIT_REQUIRE_PG=1` (CI) the run fails here; otherwise
 * the PostgreSQL tests are skipped and say why (`FUND_AUDIT_TEST_PG_MISSING`).
 */
import { findPgBin, startPgCluster } from './pg-test-cluster.mjs';

/**
 * @param _project the vitest project (unused)
 * @param find where the PostgreSQL binaries are (null: not installed)
 * @returns the teardown that stops the cluster, if one was started
 * @throws Error when the binaries are missing and `FUND_AUDIT_REQUIRE_PG=1`
 */
export default async function setup(_project, find = findPgBin) {
  if (process.env.FUND_AUDIT_TEST_DATABASE_URL) return undefined;
  if (!find()) {
    const reason = 'PostgreSQL is not installed (apt-get install -y postgresql)';
    if (process.env.FUND_AUDIT_REQUIRE_PG === '1') throw new Error(`FUND_AUDIT_REQUIRE_PG=1 but ${reason}`);
    process.env.FUND_AUDIT_TEST_PG_MISSING = reason;
    console.warn(`PostgreSQL tests skipped: ${reason}`);
    return undefined;
  }
  const cluster = await startPgCluster();
  process.env.FUND_AUDIT_TEST_DATABASE_URL = cluster.url;
  return () => cluster.stop();
}

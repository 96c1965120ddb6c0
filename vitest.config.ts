import { defineConfig } from 'vitest/config';
import { findPgBin } from './scripts/pg-test-cluster.mjs';

/**
 * The HTTP suites: every route through the real h3 app. They run twice, on SQLite (project
 * `node`) and on PostgreSQL (project `http-pg`, where `createTestContext` opens a database of the
 * run's cluster: FUND_AUDIT_TEST_DIALECT). Suites about SQLite alone (its backup, the data
 * directory) pin their dialect with `createTestContext({ dialect: 'sqlite' })`.
 */
const httpSuites = ['server/http/**/*.test.ts', 'server/services/**/*-http.test.ts'];
/** The PostgreSQL project needs a cluster: skipped where PostgreSQL is not installed, unless CI requires it. */
const withPg = process.env.FUND_AUDIT_REQUIRE_PG === '1' || findPgBin() !== null || !!process.env.FUND_AUDIT_TEST_DATABASE_URL;
if (!withPg) console.warn('HTTP suites on PostgreSQL skipped: PostgreSQL is not installed (apt-get install -y postgresql)');

const nodeProject = {
  environment: 'node' as const,
  // a throwaway PostgreSQL cluster for the PostgreSQL tests (FUND_AUDIT_TEST_DATABASE_URL)
  globalSetup: ['./scripts/pg-global-setup.mjs'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...nodeProject,
          name: 'node',
          include: [
            'rules/**/*.test.ts',
            'client/**/*.test.ts',
            'server/**/*.test.ts',
            'cli/**/*.test.ts',
            'pipeline/**/*.test.ts',
            'fixtures/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
          ],
        },
      },
      ...(withPg
        ? [
            {
              test: {
                ...nodeProject,
                name: 'http-pg',
                include: httpSuites,
                env: { FUND_AUDIT_TEST_DIALECT: 'postgres' },
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          pool: 'forks',
          maxWorkers: 1,
          // a step the page waits for (a server call, a pipeline stage) can take seconds on a busy machine
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

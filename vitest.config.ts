import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          // a throwaway PostgreSQL cluster for the PostgreSQL tests (FUND_AUDIT_TEST_DATABASE_URL)
          globalSetup: ['./scripts/pg-global-setup.mjs'],
          include: [
            'rules/**/*.test.ts',
            'client/**/*.test.ts',
            'server/**/*.test.ts',
            'cli/**/*.test.ts',
            'pipeline/**/*.test.ts',
            'fixtures/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
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
        },
      },
    ],
  },
});

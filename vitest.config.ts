import { defineConfig } from 'vitest/config';

/**
 * One test run for the whole monorepo, in three projects:
 * - unit: pure code beside its source (`src/**\/*.test.ts`), no network.
 * - integration: packages against a real S3-compatible server started by the tests (`test/**`).
 * - browser: real headless chromium (Debian's /usr/bin/chromium via playwright-core) on the examples.
 *
 * The integration and browser projects share one Ceph radosgw per run (~15 s to start), read in tests
 * with `inject('radosgw')`. Its global setup is listed per project, not at the root: vitest runs the
 * root's global setup on every run, `--project unit` included, where no server is wanted.
 */
const RADOSGW_SETUP = './tools/ceph-rgw/src/global-setup.ts';

export default defineConfig({
  test: {
    // In CI a JSON report too, from which .ci/run prints its closing "N passed, N failed" line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/test/**/*.test.{ts,tsx}'],
          environment: 'node',
          globalSetup: [RADOSGW_SETUP],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['examples/*/test/**/*.test.{ts,tsx}'],
          environment: 'node',
          globalSetup: [RADOSGW_SETUP],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

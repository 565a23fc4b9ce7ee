import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One test run for the whole monorepo, in four projects:
 * - unit: pure code beside its source (`src/**\/*.test.ts`), no network.
 * - integration: packages against a real S3-compatible server started by the tests (`test/**`).
 * - scale: the server past one process (`test/scale/` of a package): several handler processes, Redis,
 *   RabbitMQ, radosgw's bucket notifications, each started by the test file that needs it; one file at a time.
 * - browser: the examples in real browsers of three engines (`@upbeam/test-browser`): Debian's chromium
 *   (playwright-core), firefox-esr (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver
 *   under Xvfb), installed by `scripts/install-browsers.sh`. The suites that matter to users run once per
 *   engine (`describe.each(ENGINES)`; `UPBEAM_BROWSERS=firefox,webkit` narrows them); the retry and
 *   fault-run suites run in chromium only. One file at a time: each starts browsers and servers.
 *
 * The integration and browser projects share one Ceph radosgw per run (~15 s to start), read in tests
 * with `inject('radosgw')`. Its global setup is listed per project, not at the root: vitest runs the
 * root's global setup on every run, `--project unit` included, where no server is wanted.
 */
const RADOSGW_SETUP = './tools/ceph-rgw/src/global-setup.ts';

/**
 * In CI a failed test runs again, up to twice. The integration and browser projects talk to real servers
 * and browsers, and some unit tests run real timers (retry backoff, Retry-After): on a loaded machine they
 * depend on the scheduler (a page that misses a poll, a server slow to answer); a real bug fails all
 * three attempts. The default reporter marks a test that passed on a retry, and
 * `.ci/run` lists every test that failed at the end of its output. Locally a failure is final.
 */
const CI_RETRY = process.env.CI ? 2 : 0;

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
          retry: CI_RETRY,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/*/test/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, 'packages/*/test/scale/**'],
          environment: 'node',
          globalSetup: [RADOSGW_SETUP],
          testTimeout: 30_000,
          retry: CI_RETRY,
        },
      },
      {
        // Past one process: several handler processes, Redis, RabbitMQ and radosgw's bucket notifications,
        // each started by its test file. Once per `npm test` (the full run on Node 24), not on every Node.
        test: {
          name: 'scale',
          include: ['packages/*/test/scale/**/*.test.ts'],
          environment: 'node',
          globalSetup: [RADOSGW_SETUP],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          retry: CI_RETRY,
          fileParallelism: false,
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
          retry: CI_RETRY,
          // A page reacts within a frame on an idle machine; on 2 shared cores (and with the main thread
          // busy during a multipart upload) it can take seconds: poll up to 15 s, not vitest's 1 s.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});

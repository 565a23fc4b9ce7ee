/**
 * @module
 * vitest `globalSetup`: one radosgw per test run, provided to the tests as `inject('radosgw')`.
 *
 * Listed in the `integration` and `browser` projects (not at the root, whose global setup vitest runs
 * on every run, `--project unit` too). vitest runs a project's global setup once per project, in its
 * main process: the projects share one radosgw through `globalThis`, and the last teardown stops it.
 * Teardown runs when the run ends, failed tests included; on Ctrl-C, {@link startRadosgw}'s exit hook
 * stops the daemons.
 */
import { performance } from 'node:perf_hooks';
import type { TestProject } from 'vitest/node';
import { isRadosgwAvailable, RADOSGW_MISSING, startRadosgw, type Radosgw, type RadosgwConnection } from './index';

interface Shared {
  radosgw: Promise<Radosgw | null>;
  /** Projects whose teardown has not run yet. */
  users: number;
}

const SHARED = Symbol.for('@upbeam/ceph-rgw/global-setup');
const store = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (store[SHARED] ??= { radosgw: start(), users: 0 });
  shared.users += 1;
  const radosgw = await shared.radosgw;
  const connection: RadosgwConnection | null = radosgw && {
    endpoint: radosgw.endpoint,
    region: radosgw.region,
    accessKeyId: radosgw.accessKeyId,
    secretAccessKey: radosgw.secretAccessKey,
  };
  project.provide('radosgw', connection);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete store[SHARED];
    await radosgw?.close();
  };
}

async function start(): Promise<Radosgw | null> {
  if (!isRadosgwAvailable()) {
    // In CI a missing install step must fail the run, not shrink it.
    if (process.env.CI === 'true') throw new Error(RADOSGW_MISSING);
    console.warn(`[ceph-rgw] ${RADOSGW_MISSING} The radosgw suites are skipped.`);
    return null;
  }
  const started = performance.now();
  const radosgw = await startRadosgw();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[ceph-rgw] radosgw ready at ${radosgw.endpoint} in ${seconds} s (${radosgw.dir})`);
  return radosgw;
}

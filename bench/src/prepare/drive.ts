/** Driving a preparation server from the benchmark: load from a process of its own, the server's CPU time. */
import { join } from 'node:path';
import { startChild } from '../lib/child';
import { BENCH_DIR } from '../lib/paths';
import type { LoadFigures, LoadSettings } from './load';

/** Runs autocannon once in a process of its own on core 0 (`load.ts`); resolves to its figures. */
export async function loadOnce(settings: LoadSettings): Promise<LoadFigures> {
  const child = await startChild(join(BENCH_DIR, 'src', 'prepare', 'load.ts'), [JSON.stringify(settings)], {
    cpu: 0,
    timeoutMs: (settings.seconds + 30) * 1000,
  });
  await child.stop();
  return child.ready as unknown as LoadFigures;
}

/** The server's CPU time so far (user + system), in microseconds (`bench-control.ts`). */
export async function serverCpuMicros(url: string): Promise<number> {
  const response = await fetch(new URL('/__bench/cpu', url));
  const { user, system } = (await response.json()) as { user: number; system: number };
  return user + system;
}

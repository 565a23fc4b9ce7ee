/** Raw results of each benchmark, kept as JSON beside RESULTS.md so that the report can be rewritten. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Machine } from './machine';
import { RESULTS_DIR } from './paths';

/**
 * The benchmarks of `pnpm bench`, and the opt-in ones: the upload of a file over 5 GiB, the traced uploads, a
 * batch of files joining a list with no upload, what one frame of a long list costs, and the upload and many-files
 * runs against another checkout's build (`BENCH_BEFORE_ROOT`, `lib/before-build.ts`).
 */
export type BenchName =
  | 'bundle'
  | 'prepare'
  | 'prepare-record'
  | 'limits'
  | 'checksums'
  | 'checksums-floors'
  | 'hashing'
  | 'storage-events'
  | 'cold-start'
  | 'cold-start-routes'
  | 'cold-start-telemetry'
  | 'upload'
  | 'many-files'
  | 'huge'
  | 'upload-trace'
  | 'upload-cpu'
  | 'many-files-growth'
  | 'many-files-previews'
  | 'many-files-frame-cost'
  | 'many-files-folder'
  | 'persist-scale'
  | 'prepare-batch'
  | 'lead-in'
  | 'lead-in-before'
  | 'upload-before-after'
  | 'many-files-before-after';

/** What every result file holds besides its data. */
export interface ResultMeta {
  machine: Machine;
  /** Wall-clock seconds the benchmark took. */
  seconds: number;
}

export async function saveResult<T extends ResultMeta>(name: BenchName, result: T): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

export async function loadResult<T extends ResultMeta>(name: BenchName): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(join(RESULTS_DIR, `${name}.json`), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

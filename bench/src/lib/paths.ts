import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `bench/` */
export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Raw results of each benchmark, from which RESULTS.md is written. */
export const RESULTS_DIR = join(BENCH_DIR, 'results');
/** Build output and scratch files (git-ignored). */
export const TMP_DIR = join(BENCH_DIR, '.tmp');

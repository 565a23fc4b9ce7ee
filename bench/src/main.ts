/**
 * `pnpm bench` (every benchmark, then RESULTS.md), or `tsx src/main.ts bundle|prepare|cold-start|upload|many-files|report`
 * for one benchmark (its JSON in results/ is replaced, RESULTS.md rewritten from all results), or
 * `tsx src/main.ts prepare-record` for the opt-in cost of the upload record (`prepare/record.ts`), `tsx src/main.ts huge` for the opt-in upload of a file over 5 GiB, `tsx src/main.ts upload-trace` for the
 * opt-in traced uploads (long tasks by CPU time), `tsx src/main.ts upload-cpu` for the client-CPU table (every cell of the
 * upload table, paired against its bare floor), `tsx src/main.ts many-files-growth` for the opt-in timing of a batch
 * joining the React lists with no upload, `tsx src/main.ts many-files-previews` for the opt-in photo runs (5,000 photos
 * of ~4 MB listed with their previews: memory, long tasks, first rows), `tsx src/main.ts frame-cost` for the opt-in cost of one frame of a long
 * list (none of these is part of `all`).
 * Run `pnpm run build` at the root first (the root's `pnpm bench` does): the benchmarks use the built packages.
 */
import './lib/loopback-guard';
import { runBundleBench } from './bundle/run';
import { runFrameCostBench } from './many-files/frame-cost';
import { runColdStartBench } from './cold-start/run';
import { runHugeBench } from './huge/run';
import { runManyFilesBench } from './many-files/run';
import { runFolderDropBench } from './many-files/folder-drop';
import { runPrepareRecordBench } from './prepare/record';
import { runPrepareBench } from './prepare/run';
import { writeReport } from './report';
import { runUploadBench } from './upload/run';

const which = process.argv[2] ?? 'all';
const known = ['all', 'bundle', 'prepare', 'prepare-record', 'cold-start', 'upload', 'many-files', 'huge', 'upload-trace', 'upload-cpu', 'many-files-growth', 'many-files-previews', 'many-files-folder', 'frame-cost', 'report'];
if (!known.includes(which)) {
  console.error(`usage: tsx src/main.ts [${known.join('|')}]`);
  process.exit(2);
}
const started = performance.now();
if (which === 'all' || which === 'bundle') await runBundleBench();
if (which === 'all' || which === 'prepare') await runPrepareBench();
if (which === 'all' || which === 'cold-start') await runColdStartBench();
if (which === 'all' || which === 'upload') await runUploadBench();
if (which === 'all' || which === 'many-files') await runManyFilesBench();
if (which === 'prepare-record') await runPrepareRecordBench();
if (which === 'huge') await runHugeBench();
if (which === 'upload-trace') await runUploadBench({ trace: true });
if (which === 'upload-cpu') await runUploadBench({ cpu: true });
if (which === 'many-files-growth') await runManyFilesBench({ growthOnly: true });
if (which === 'many-files-previews') await runManyFilesBench({ photos: true });
if (which === 'many-files-folder') await runFolderDropBench();
if (which === 'frame-cost') await runFrameCostBench();
const path = await writeReport();
console.log(`[bench] wrote ${path} in ${((performance.now() - started) / 1000).toFixed(0)} s`);

/**
 * Where a traced upload's CPU goes, by browser thread: reads the traces that `UPLOAD_TRACE_DIR` kept
 * (page-trace.ts) and prints, per mode, the median CPU time (thread time of each thread's outermost events,
 * ms) of the threads that do an upload's work: the browser's IO thread (its network service here: requests,
 * IPC), its main thread and thread pool (the parts' `Blob` reads), the renderer's main and compositor
 * threads, and the GPU process's compositor (Viz), and of every thread together.
 *
 *   UPLOAD_TRACE=<modes> UPLOAD_TRACE_DIR=/tmp/traces pnpm --filter @upbeam/bench bench:upload
 *   pnpm --filter @upbeam/bench exec tsx src/upload/trace-threads.ts /tmp/traces
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../lib/stats';
import type { TraceEvent } from './page-trace';

/** Columns: a label and whether a thread (its process's name, its own name) belongs to it. */
const COLUMNS: [string, (process: string, thread: string) => boolean][] = [
  ['browser IO', (process, thread) => process === 'Browser' && thread === 'Chrome_IOThread'],
  ['browser main', (process, thread) => process === 'Browser' && thread === 'CrBrowserMain'],
  ['browser pool', (process, thread) => process === 'Browser' && thread.startsWith('ThreadPool')],
  ['renderer main', (process, thread) => process === 'Renderer' && thread === 'CrRendererMain'],
  ['renderer compositor', (process, thread) => process === 'Renderer' && thread === 'Compositor'],
  ['GPU Viz', (process, thread) => process === 'GPU Process' && thread === 'VizCompositorThread'],
];

/** CPU ms of each column, and of all threads, in one trace. */
function threadTimes(events: TraceEvent[]): number[] {
  const processes = new Map<number, string>();
  const threads = new Map<string, string>();
  for (const event of events) {
    if (event.ph !== 'M') continue;
    if (event.name === 'process_name') processes.set(event.pid, event.args?.name ?? '');
    if (event.name === 'thread_name') threads.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  }
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.ph !== 'X' || event.tdur === undefined) continue;
    const key = `${event.pid}:${event.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), event]);
  }
  const sums: number[] = new Array<number>(COLUMNS.length + 1).fill(0);
  const add = (column: number, ms: number) => (sums[column] = (sums[column] ?? 0) + ms);
  for (const [key, list] of byThread) {
    // The outermost events only: a nested event's time is in its parent's.
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    let end = -1;
    let cpu = 0;
    for (const event of list) {
      if (event.ts < end) continue;
      cpu += event.tdur! / 1000;
      end = event.ts + (event.dur ?? 0);
    }
    const process = processes.get(Number(key.split(':')[0])) ?? '';
    const thread = threads.get(key) ?? '';
    const column = COLUMNS.findIndex(([, belongs]) => belongs(process, thread));
    if (column >= 0) add(column, cpu);
    add(COLUMNS.length, cpu);
  }
  return sums;
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: trace-threads.ts <UPLOAD_TRACE_DIR>');
// Files are `<target>-<size>MiB-<mode>-<time>.json`.
const byCell = new Map<string, number[][]>();
for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
  const cell = file.replace(/-\d+\.json$/, '');
  const times = threadTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as TraceEvent[]);
  byCell.set(cell, [...(byCell.get(cell) ?? []), times]);
}
console.log(`| cell and mode | traces | ${COLUMNS.map(([label]) => label).join(' | ')} | all threads |`);
console.log(`| --- | ---: |${' ---: |'.repeat(COLUMNS.length + 1)}`);
for (const [cell, traces] of byCell) {
  const medians = traces[0]!.map((_, column) => Math.round(median(traces.map((times) => times[column]!))));
  console.log(`| ${cell} | ${traces.length} | ${medians.join(' | ')} |`);
}

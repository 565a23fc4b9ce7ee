/**
 * The page's main-thread tasks by their CPU time, from a chromium trace (`toplevel` category: every task a
 * thread runs, with its wall time `dur` and its thread time `tdur`), opt-in with `UPLOAD_TRACE=<mode ids>`.
 * The Long Tasks API counts wall time: on a machine whose cores are shared many ways, a task that waits for
 * a core is counted long. A task's thread time is what the page itself spent in it, whatever the load: the
 * measure of "no task over 50 ms" that a busy machine can still give.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CdpPage } from '../lib/cdp-browser';

/** The renderer main thread's tasks during one upload, by thread (CPU) time and by wall time. */
export interface TaskTimes {
  tasks: number;
  /** Tasks whose thread time passed 50 ms, and the longest thread time (ms). */
  overFiftyCpu: number;
  maxCpuMs: number;
  /** Tasks whose wall time passed 50 ms, and the longest wall time (ms): what the Long Tasks API sees. */
  overFiftyWall: number;
  maxWallMs: number;
  /** The three tasks of most CPU time: their CPU time and wall time (ms); absent in results written before it. */
  longestByCpu?: { cpuMs: number; wallMs: number }[];
}

/** One event of a chromium trace (the Trace Event Format). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Start, microseconds of the trace's clock. */
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The page's events, gathered from `Tracing.start` until {@link stopTrace}. */
export interface PageTrace {
  events: TraceEvent[];
  stop(): void;
}

export async function startTrace(page: CdpPage): Promise<PageTrace> {
  const events: TraceEvent[] = [];
  const stop = page.on('Tracing.dataCollected', (params) => events.push(...(params.value as TraceEvent[])));
  // UPLOAD_TRACE_CATEGORIES adds categories (`devtools.timeline,blink,loading,v8`) for a look at what the tasks do.
  const extra = process.env.UPLOAD_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];
  const includedCategories = ['toplevel', 'blink.user_timing', '__metadata', ...extra];
  await page.send('Tracing.start', { traceConfig: { includedCategories }, transferMode: 'ReportEvents' });
  return { events, stop };
}

const LONG_MS = 50;

/**
 * Ends the trace and sums the tasks of the renderers' main threads (`CrRendererMain`); with `fromMark`, only the
 * tasks that started after the page's `performance.mark(fromMark)` (as a Long Tasks count from a time, the task
 * that made the mark is left out). `name` names the file UPLOAD_TRACE_DIR keeps.
 */
export async function stopTrace(page: CdpPage, trace: PageTrace, { fromMark, name = 'trace' }: { fromMark?: string; name?: string } = {}): Promise<TaskTimes> {
  const complete = new Promise<void>((resolve) => {
    const stop = page.on('Tracing.tracingComplete', () => {
      stop();
      resolve();
    });
  });
  await page.send('Tracing.end');
  await complete;
  trace.stop();
  // UPLOAD_TRACE_DIR: every event of the trace kept as JSON there (one file per traced upload), to read in a tool.
  const dir = process.env.UPLOAD_TRACE_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}-${Date.now()}.json`), JSON.stringify(trace.events));
  }
  const mainThreads = new Set(
    trace.events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`),
  );
  const from = fromMark === undefined ? undefined : trace.events.find((event) => event.name === fromMark)?.ts;
  if (fromMark !== undefined && from === undefined) throw new Error(`the trace has no mark ${fromMark}`);
  const tasks = trace.events.filter(
    (event) =>
      event.ph === 'X' &&
      event.name === 'ThreadControllerImpl::RunTask' &&
      mainThreads.has(`${event.pid}:${event.tid}`) &&
      (from === undefined || event.ts > from),
  );
  const cpu = tasks.map((event) => (event.tdur ?? 0) / 1000);
  const wall = tasks.map((event) => (event.dur ?? 0) / 1000);
  return {
    tasks: tasks.length,
    overFiftyCpu: cpu.filter((ms) => ms > LONG_MS).length,
    maxCpuMs: Math.round(Math.max(0, ...cpu)),
    overFiftyWall: wall.filter((ms) => ms > LONG_MS).length,
    maxWallMs: Math.round(Math.max(0, ...wall)),
    longestByCpu: cpu
      .map((cpuMs, index) => ({ cpuMs: Math.round(cpuMs), wallMs: Math.round(wall[index]!) }))
      .sort((a, b) => b.cpuMs - a.cpuMs)
      .slice(0, 3),
  };
}

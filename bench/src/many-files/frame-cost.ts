/**
 * Benchmark (opt-in, `bench:frame-cost`): what one frame of the many-files page's plain list costs in chromium
 * when it changes, drawn with DOM calls (no framework, no upload): 1,000 and 5,000 rows, plain, with CSS
 * `content-visibility: auto` or contained, and before each timed frame nothing, the summary line, one or six
 * progress bars, one or six status words, or a status word in view changed (`frame-cost-page.ts`). The floor under any renderer of these rows: a React render can add to
 * a frame's style and layout, never take from it. Each round a fresh page per list, lists taking turns.
 */
import os from 'node:os';
import { join } from 'node:path';
import { launchCdpBrowser } from '../lib/cdp-browser';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { describeMachine } from '../lib/machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import { buildPage, startPageServer } from '../upload/page-server';
import type { FrameChange, FrameCostMarkup, FrameTimes } from './frame-cost-page';

const PAGE_DIR = join(TMP_DIR, 'frame-cost');
const MARKUPS: FrameCostMarkup[] = ['plain', 'content-visibility', 'contained'];
/** Frames timed per kind of change, per run. */
const FRAMES = 60;

export interface FrameCostCell {
  rows: number;
  markup: FrameCostMarkup;
  change: FrameChange;
  /** One entry a round. */
  samples: FrameTimes[];
  /** Over the rounds: the median of the medians and of the 90th percentiles, the longest frame, and frames over 50 ms a run (median). */
  median: { medianMs: number; p90Ms: number; maxMs: number; over50: number };
}

export interface FrameCostResultFile extends ResultMeta {
  settings: string;
  frames: number;
  cells: FrameCostCell[];
}

export async function runFrameCostBench(): Promise<FrameCostResultFile> {
  const started = performance.now();
  const rowCounts = process.env.FRAME_COST_ROWS?.split(',').map(Number) ?? [1000, 5000];
  const rounds = Number(process.env.FRAME_COST_ROUNDS ?? 3);
  await buildPage({ entry: join(BENCH_DIR, 'src', 'many-files', 'frame-cost-page.ts'), outDir: PAGE_DIR });
  const server = await startPageServer(PAGE_DIR);
  const browser = await launchCdpBrowser();
  const samples = new Map<string, FrameTimes[]>();
  const loads: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const rows of rowCounts) {
        for (const markup of MARKUPS.map((_, index) => MARKUPS[(index + round) % MARKUPS.length]!)) {
          loads.push(Math.round(os.loadavg()[0]! * 10) / 10);
          const page = await browser.newPage(`${server.origin}/`);
          try {
            for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.benchFrameCost === 'function'`).catch(() => false)); waited += 50) {
              if (waited > 15_000) throw new Error('the frame-cost page did not load');
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            const result = await page.evaluate<Record<FrameChange, FrameTimes>>(`window.benchFrameCost(${JSON.stringify({ rows, markup, frames: FRAMES })})`);
            for (const [change, times] of Object.entries(result)) {
              const key = `${rows}|${markup}|${change}`;
              samples.set(key, [...(samples.get(key) ?? []), times]);
              console.log(`[frame-cost] round ${round + 1}/${rounds}, ${rows} rows, ${markup}, ${change}: median ${times.medianMs} ms, p90 ${times.p90Ms} ms, max ${times.maxMs} ms, ${times.over50} over 50 ms`);
            }
          } finally {
            await page.close().catch(() => {});
          }
        }
      }
    }
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
  const cells = [...samples].map(([key, runs]): FrameCostCell => {
    const [rows, markup, change] = key.split('|') as [string, FrameCostMarkup, FrameChange];
    return {
      rows: Number(rows),
      markup,
      change,
      samples: runs,
      median: {
        medianMs: median(runs.map((run) => run.medianMs)),
        p90Ms: median(runs.map((run) => run.p90Ms)),
        maxMs: Math.max(...runs.map((run) => run.maxMs)),
        over50: median(runs.map((run) => run.over50)),
      },
    };
  });
  const result: FrameCostResultFile = {
    machine: describeMachine([], { chromium: browser.version }),
    seconds: (performance.now() - started) / 1000,
    settings:
      `headless Debian chromium over a bare DevTools pipe; ${FRAMES} frames timed per change and run; ${rounds} rounds, a fresh page per ` +
      `list; load average (1 min, 2 = both cores busy) during the run: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${median(loads).toFixed(1)}`,
    frames: FRAMES,
    cells,
  };
  await saveResult('many-files-frame-cost', result);
  return result;
}

/**
 * A CPU profile of the page's main thread during one upload (DevTools `Profiler` domain, sampled every
 * 1 ms), opt-in with `UPLOAD_PROFILE=<mode ids>`: where the page's time goes when a client misses its
 * target. The `.cpuprofile` is written under `bench/.tmp/profiles/` (open it in DevTools' Performance
 * panel); the summary (self time by function) goes into results/upload.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { CdpPage } from '../lib/cdp-browser';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** Self time of one function over the profile. */
export interface ProfileEntry {
  /** `name (file:line)`, or a V8 category: `(idle)`, `(program)`, `(garbage collector)`. */
  frame: string;
  ms: number;
  percent: number;
}

/** What one profiled upload shows: the main thread's busy time and the functions that took it. */
export interface ProfileSummary {
  /** The `.cpuprofile`, relative to `bench/`. */
  file: string;
  wallMs: number;
  /** Milliseconds not idle (scripts, GC, V8's own work). */
  busyMs: number;
  top: ProfileEntry[];
}

export async function startProfile(page: CdpPage): Promise<void> {
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 1000 });
  await page.send('Profiler.start');
}

function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  if (!url) return functionName || '(anonymous)';
  return `${functionName || '(anonymous)'} (${url.split('/').pop()}:${lineNumber + 1})`;
}

/** Stops the profile, writes it as `{name}.cpuprofile` and sums the self time of each function. */
export async function stopProfile(page: CdpPage, name: string, topCount = 12): Promise<ProfileSummary> {
  const { profile } = await page.send<{ profile: Profile }>('Profiler.stop');
  const directory = join(TMP_DIR, 'profiles');
  await mkdir(directory, { recursive: true });
  const file = join(directory, `${name}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // timeDeltas[i] is the time before sample i: it is charged to the sample that follows it.
  for (let index = 0; index < samples.length; index++) {
    const node = nodes.get(samples[index]!);
    if (!node) continue;
    const frame = frameName(node.callFrame);
    self.set(frame, (self.get(frame) ?? 0) + (deltas[index] ?? 0) / 1000);
  }
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const busyMs = [...self].filter(([frame]) => frame !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topCount)
    .map(([frame, ms]) => ({ frame, ms: Math.round(ms), percent: Math.round((ms / wallMs) * 1000) / 10 }));
  return { file: relative(BENCH_DIR, file), wallMs: Math.round(wallMs), busyMs: Math.round(busyMs), top };
}

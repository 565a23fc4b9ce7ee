/**
 * A CPU profile of Upbeam's presigned preparation under load: the running server (`server.ts
 * upbeam-presigned`, already warm) profiles itself over a fixed count of requests sent by autocannon in
 * its own process (`bench-control.ts`, `load.ts`), and the profile is summed up by frame and by package.
 * The raw `.cpuprofile` stays in `results/` (not committed) for Chrome DevTools or speedscope.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { summarizeProfile, type CpuProfile, type ProfileSummary } from '../lib/cpu-profile';
import { RESULTS_DIR } from '../lib/paths';
import { loadOnce } from './drive';

/** Requests answered while the profiler runs. */
export const PROFILE_REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 20_000);

/** Where the raw profile is written. */
export const PROFILE_FILE = join(RESULTS_DIR, 'prepare-presigned.cpuprofile');

async function control(url: string, path: string): Promise<void> {
  const response = await fetch(new URL(`/__bench/${path}`, url), { method: 'POST' });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

export async function profilePresigned(url: string, body: Record<string, unknown>): Promise<ProfileSummary & { requests: number; command: string }> {
  await control(url, 'profile/start');
  const figures = await loadOnce({ url, body: JSON.stringify(body), connections: 10, seconds: 30, amount: PROFILE_REQUESTS });
  await control(url, `profile/stop?file=${encodeURIComponent(PROFILE_FILE)}`);
  const profile = JSON.parse(await readFile(PROFILE_FILE, 'utf8')) as CpuProfile;
  return {
    ...summarizeProfile(profile),
    requests: figures.requests,
    command: `node:inspector Profiler (100 µs sampling) in the \`server.ts upbeam-presigned\` process over ${figures.requests} requests`,
  };
}

/** The cold-start section of RESULTS.md (`cold-start/run.ts`). */
import type { ColdStartRoutesResult } from './cold-start/five-routes-run';
import type { ColdStartResult } from './cold-start/run';
import { fmt, median, range } from './lib/stats';

/** The issue's target: the upload server adds at most this much to a fresh process's first answer, in ms. */
const ADDED_TARGET_MS = 60;

export function coldStartSection(result: ColdStartResult, add: (...text: string[]) => void, headline: string[]): void {
  const row = (id: string) => result.rows.find((entry) => entry.id === id);
  const bare = row('bare');
  const upbeam = row('upbeam');
  if (!bare || !upbeam) return;
  const added = median(upbeam.samples) - median(bare.samples);
  const times = median(upbeam.samples) / median(bare.samples);
  headline.push(
    `- **Cold start**: a fresh Node process answers its first presigned preparation in ${fmt(median(upbeam.samples))} ms ` +
      `through Upbeam's node adapter, ${fmt(median(bare.samples))} ms as a bare \`node:http\` server: ${times.toFixed(2)}x, ` +
      `+${fmt(added)} ms (target: at most +${ADDED_TARGET_MS} ms: ${added <= ADDED_TARGET_MS ? 'met' : '**not met**'}` +
      (result.load ? ` at a load average of ${result.load[1].toFixed(1)}` : '') +
      (upbeam.cpu && bare.cpu ? `; in CPU time to the first answer +${fmt(median(upbeam.cpu) - median(bare.cpu))} ms, ${(median(upbeam.cpu) / median(bare.cpu)).toFixed(2)}x` : '') +
      (row('baseline') ? `; the other build in the same rounds: +${fmt(median(row('baseline')!.samples) - median(bare.samples))} ms` + (row('baseline')!.cpu && bare.cpu ? `, +${fmt(median(row('baseline')!.cpu!) - median(bare.cpu))} ms CPU` : '') : '') +
      ').',
  );
  add(
    '## 2b. Cold start: a fresh process to its first presigned answer',
    '',
    `From \`spawn\` of \`node\` (no loader) to the first answer's body: each server started ${result.rounds} times, the two taking`,
    'turns, after one warm-up each (`pnpm --filter @upbeam/bench bench:cold-start`). Upbeam imports `@upbeam/upload-server` and',
    '`/node` and answers through `toNodeHandler(createUploadHandler())`, with a path-style endpoint that is never contacted (a',
    'presigned URL is signed locally). The SDK is imported on the first request, and only what a presigned PUT needs.' +
      (result.load
        ? ` Load average (1 min) over the rounds: ${result.load.map((value) => value.toFixed(1)).join(' / ')} (lowest / median / highest; 2 = both cores busy): on a busy machine every process starts slower, the bare one too, and the milliseconds added grow with it; the ratio moves less.`
        : ''),
    '',
    '| server | listening: median | first answer: median | range | ratio to bare | CPU to the first answer: median | CPU: ratio to bare |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const entry of result.rows) {
    const [low, high] = range(entry.samples);
    add(
      `| ${entry.label} | ${fmt(median(entry.listening))} ms | ${fmt(median(entry.samples))} ms | ${fmt(low)}–${fmt(high)} ms | ` +
        `${(median(entry.samples) / median(bare.samples)).toFixed(2)}x | ${entry.cpu ? `${fmt(median(entry.cpu))} ms` : 'n/a'} | ` +
        `${entry.cpu && bare.cpu ? `${(median(entry.cpu) / median(bare.cpu)).toFixed(2)}x` : 'n/a'} |`,
    );
  }
  add(
    '',
    `Added by the upload server: **+${fmt(added)} ms** (median first answer, Upbeam minus bare)` +
      (upbeam.cpu && bare.cpu ? `; in CPU time, +${fmt(median(upbeam.cpu) - median(bare.cpu))} ms.` : '.'),
  );
  const baseline = row('baseline');
  if (baseline) {
    add(
      '',
      `The other build, same rounds: +${fmt(median(baseline.samples) - median(bare.samples))} ms, ${(median(baseline.samples) / median(bare.samples)).toFixed(2)}x bare; ` +
        `this build adds ${fmt(added)} ms, ${((added / (median(baseline.samples) - median(bare.samples))) * 100).toFixed(0)} % of what it added.`,
    );
  }
  add('');
}

/** Under 2b: the cold start of a five-route handler, this build beside another (`cold-start/five-routes-run.ts`). */
export function coldStartRoutesSection(result: ColdStartRoutesResult, add: (...text: string[]) => void): void {
  add(
    '### Five routes: one S3 client',
    '',
    `A fresh \`node\` process imports \`@upbeam/upload-server\`, creates a handler with five routes and answers the first presigned`,
    'preparation of each (Fetch `Request`s, no server), then exits; the bucket has a dot, so its address comes from the',
    "SDK's endpoint rules (each URL signer asks an S3 client for it once, offline). This build and the other take turns,",
    `${result.rounds} processes each after one warm-up (\`COLD_START_BASELINE_DIST=<other build's dist> pnpm --filter @upbeam/bench bench:cold-start-routes\`,`,
    `${result.machine.date.slice(0, 10)}; load average ${result.load.map((value) => value.toFixed(1)).join(' / ')}: the wall times are the noisy ones). Clients counted in one more run`,
    'whose module hooks count each construction (`count-clients.mjs`).',
    '',
    '| build | process, spawn to exit | process CPU to the 5th answer | creation to the 5th answer | its CPU | SDK clients constructed |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...result.rows.map(
      (row) =>
        `| ${row.label} | ${row.wallMs} ms | ${row.cpuMs} ms | ${row.answersMs} ms | ${row.answersCpuMs} ms | ` +
        `${Object.entries(row.clients).map(([name, count]) => `${name} × ${count}`).join(', ') || 'none'} |`,
    ),
    '',
  );
}

/**
 * The one-process view of `run.ts`: presigned preparations through the Fetch handler of the built package (no
 * HTTP), without limits (`plain`) or with run.ts's limits in the memory store (`limits`), on `@upbeam/local-s3`;
 * 1,000 subjects in turn. 3,000 warm-up preparations, then 5 runs of N (default 3,000): prints the CPU time
 * (user + system) of this process per preparation. For a profile, run it under `node --cpu-prof`:
 * `pnpm --filter @upbeam/upload-server build`, then in bench/:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof/limits --import tsx src/limits/one-process.ts limits 3000`.
 * Alternate `plain` and `limits` processes: the machine's load moves each one. Figures in RESULTS.md 2d (prose).
 */
import '../lib/loopback-guard';
import { startLocalS3 } from '@upbeam/local-s3';
import { createUploadHandler } from '@upbeam/upload-server';

const mode = process.argv[2] === 'limits' ? 'limits' : 'plain';
const N = Number(process.argv[3] ?? 3_000);
const LIMITS = {
  preparations: { max: 1e12, windowSeconds: 60 },
  files: { max: 1e12, windowSeconds: 86_400 },
  bytes: { max: 1e15, windowSeconds: 86_400 },
  inFlight: 1_000_000,
};

const storage = await startLocalS3();
const handler = createUploadHandler({
  ...storage.handlerSettings,
  ...(mode === 'limits' ? { limits: LIMITS } : {}),
  onBeforeUpload: ({ body }) => ({ subject: String(body.user) }),
  onError: (error) => console.error(error),
});

async function prepare(index: number): Promise<void> {
  const body = JSON.stringify({ filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', filesize: 2_345_678, user: `user-${index % 1_000}`, _upload: { strategy: 'presigned' } });
  const answer = await handler(new Request('http://127.0.0.1/api/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  if (answer.status !== 200) throw new Error(`${answer.status} ${await answer.text()}`);
  await answer.text();
}

for (let index = 0; index < 3_000; index++) await prepare(index);
const runs: number[] = [];
for (let run = 0; run < 5; run++) {
  const before = process.cpuUsage();
  for (let index = 0; index < N; index++) await prepare(index);
  const used = process.cpuUsage(before);
  runs.push((used.user + used.system) / N);
}
runs.sort((a, b) => a - b);
console.log(`${mode}: µs CPU per preparation, 5 runs: ${runs.map((micros) => micros.toFixed(0)).join(' ')}; median ${runs[2]!.toFixed(0)}`);
await storage.close();

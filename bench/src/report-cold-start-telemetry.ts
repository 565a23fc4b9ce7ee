/** The section of RESULTS.md on what OpenTelemetry costs a cold start (`cold-start/telemetry-run.ts`). */
import type { ColdStartTelemetryResult } from './cold-start/telemetry-run';

export function coldStartTelemetrySection(result: ColdStartTelemetryResult, add: (...text: string[]) => void): void {
  const load = result.load.map((value) => value.toFixed(1)).join(' / ');
  add(
    '## 2c. Cold start with telemetry',
    '',
    'The five-route handler of 2b (a fresh `node` process imports the server, creates the handler and answers the first',
    "presigned preparation of each route), its sources built twice with the same esbuild call: as they are, and with",
    '`src/telemetry.ts` swapped for no-op functions (no span, no metric, no `@opentelemetry/api`). A third arm runs this',
    'build with `@opentelemetry/api` loaded at the start (`--import`): what importing the API costs, which an app with an',
    'SDK pays anyway (its SDK imports it), and which every app would pay if the server imported it eagerly. The server',
    'imports the API only once something registered with it (`src/telemetry.ts`). The three take turns, in another order',
    `each round, ${result.rounds} processes each after one warm-up (\`pnpm --filter @upbeam/bench bench:cold-start-telemetry\`,`,
    `${result.machine.date.slice(0, 10)}, ${result.machine.commit}; load average ${load}: on 2 cores that busy, the CPU time`,
    'of one build spreads by tens of milliseconds from process to process).',
    '',
    '| arm | process CPU to the 5th answer | creation to the 5th answer, CPU | spawn to exit |',
    '| --- | ---: | ---: | ---: |',
    ...result.arms.map((arm) => `| ${arm.label} | ${arm.cpuMs} ms | ${arm.answersCpuMs} ms | ${arm.wallMs} ms |`),
    '',
    '| paired, round by round: process CPU | median | 95% interval |',
    '| --- | ---: | ---: |',
    ...result.differences.map((row) => `| ${row.label} | ${row.medianMs >= 0 ? '+' : ''}${row.medianMs} ms | ${row.interval[0]} to ${row.interval[1]} ms |`),
    '',
  );
}

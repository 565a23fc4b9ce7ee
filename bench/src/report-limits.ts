/** The section of RESULTS.md on what counting limits in Redis costs a presigned preparation (`limits/run.ts`). */
import type { LimitsResult, LimitsSample } from './limits/run';
import type { PairedFigures } from './lib/paired';
import { fmt, median } from './lib/stats';

const times = (value: number) => `${value.toFixed(2)}×`;
const interval = (figures: PairedFigures) =>
  `**${times(figures.ratio.median)}** (${times(figures.ratio.low)}–${times(figures.ratio.high)}, ${Math.round(figures.ratio.coverage * 100)} %)`;

export function limitsSection(result: LimitsResult, add: (...text: string[]) => void): void {
  const row = (name: string, samples: LimitsSample[]) => {
    const loads = samples.map((sample) => sample.load);
    return (
      `| ${name} | ${fmt(median(samples.map((sample) => sample.requestsPerSecond)))} | ${fmt(median(samples.map((sample) => sample.handlerCpuMicros)))} | ` +
      `${samples.some((sample) => sample.redisCpuMicros > 0) ? fmt(median(samples.map((sample) => sample.redisCpuMicros))) : ''} | ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} |`
    );
  };
  const cpuTarget = 1 / 0.7;
  const { handlerCpu } = result;
  const straddles = handlerCpu.ratio.low <= cpuTarget && handlerCpu.ratio.high >= cpuTarget;
  add(
    `## 2d. Limits counted in Redis, three handler processes (${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\`. ${result.settings}. Storage: \`@upbeam/local-s3\`; redis-server ${result.machine.versions['redis-server'] ?? 'n/a'}, ioredis ${result.machine.versions.ioredis ?? 'n/a'}.`,
    '',
    '| cluster (3 processes) | req/s (median) | handler CPU µs per preparation (3 processes) | redis-server CPU µs per preparation | load (1 min) |',
    '| --- | ---: | ---: | ---: | --- |',
    row('no limits', result.plain),
    row('limits, `memoryLimitStore` in each process', result.memory),
    row('limits, `redisLimitStore` (one Redis)', result.redis),
    '',
    'Paired by round (median of the rounds\' ratios, distribution-free interval and its coverage):',
    '',
    `- Redis store / no limits: handler CPU per preparation ${interval(handlerCpu)}; req/s ${interval(result.requestsPerSecond)}.`,
    `- memory store / no limits: handler CPU per preparation ${interval(result.memoryHandlerCpu)}; req/s ${interval(result.memoryRequestsPerSecond)}.`,
    '',
    `The issue's target, at least 0.7× the req/s of the handler without limits, is judged by CPU time (req/s on this shared 2-core ` +
      `machine follow its load): CPU-bound, 0.7× req/s is ${times(cpuTarget)} the CPU per preparation. The median, ${times(handlerCpu.ratio.median)}, ` +
      `${handlerCpu.ratio.median <= cpuTarget ? 'meets it' : 'misses it'}${straddles ? '; its interval straddles it' : ''}. ` +
      'The limits cost about as much with the memory store as with Redis: what they add is the limited preparation itself, not the store. ' +
      "The store's client side is one EVALSHA (~40 µs of the client's CPU, beside ~22 µs for a PING; measured once, 2026-11-29 08:15 UTC)." +
      (median(result.plain.map((sample) => sample.requestsPerSecond)) < median(result.redis.map((sample) => sample.requestsPerSecond))
        ? ' In this run the cluster without limits answered fewer req/s than the limited ones at less CPU per preparation: it waited on something the load average does not separate; read the req/s ratio with that in mind.'
        : ''),
    '',
    ...BEFORE_NODE_HMAC,
  );
}

/**
 * The run before receipts were signed with node:crypto (commit f2f3676), and the one-process profiles that
 * found the cost: history, kept beside every later run's figures.
 */
const BEFORE_NODE_HMAC = [
  '**Before and after the receipt\'s HMAC moved from WebCrypto to `node:crypto`** (commit f2f3676, `hmac.ts`: the runtime\'s ' +
    'built-in `createHmac` and `timingSafeEqual` on Node, Bun and Deno; WebCrypto in the worker build; the same signatures). ' +
    'The same command before it (2026-11-29 08:13 UTC, commit d73ff94, 8 rounds, load 3.0–7.0): handler CPU per preparation ' +
    'no limits 263 µs, memory store 434 µs, Redis 392 µs (redis-server 72 µs); Redis / no limits **1.68×** (1.22×–1.88×, 99 %), ' +
    'memory / no limits 1.62× (1.25×–2.09×, 99 %): the target missed, its interval straddling it. The run above is after it. Across runs ' +
    'only the paired ratios compare (the load differs).',
  '',
  'Where the limits\' CPU went, one process (`one-process.ts`: the Fetch handler of the built package on `@upbeam/local-s3`, memory store, 18,000 ' +
    'preparations under `node --cpu-prof`, µs per preparation, limited − unlimited): before, +136 µs, of which WebCrypto\'s HMAC of ' +
    'the receipt 71 µs (`crypto.subtle.sign`: a job on the thread pool, its promise, key checks and the base64url of the ' +
    'ArrayBuffer), the memory store\'s `reserve` 17 µs (7 µs of it the in-flight scan of the subject\'s held reservations: this ' +
    'benchmark never settles, so each subject holds about 20), the signed `Content-Length` and the longer answer (its receipt) ' +
    'the rest, with garbage collection. After: no WebCrypto in the profile (`createHmac` about 4 µs with its digest); CPU per ' +
    'preparation unlimited / limited (medians of 5 runs of 3,000) in 3 alternating pairs of processes 154/176, 140/180, ' +
    '146/187 µs (1.14×–1.29×; before: 147/326, 180/305, 1.69×–2.22×; `bench/src/limits/one-process.ts`, 2026-11-29 08:30 UTC). What is left of the limits is the store (`reserve`, ~20 µs with the memory store; one ' +
    'EVALSHA with Redis) and the receipt.',
  '',
];

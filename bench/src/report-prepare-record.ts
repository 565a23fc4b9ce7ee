/** The subsection of RESULTS.md on what the upload record costs a preparation (`prepare/record.ts`). */
import { fmt, median } from './lib/stats';
import type { PrepareRecordResult, RecordSample } from './prepare/record';

/**
 * The median of `values` with a distribution-free interval: the order statistics whose binomial coverage is
 * at least 95 % (for fewer than 6 values, none is: then the whole range, with its coverage).
 */
export function medianInterval(values: readonly number[]): { median: number; low: number; high: number; coverage: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const choose = (k: number) => {
    let result = 1;
    for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
    return result;
  };
  // P(X < k) for X ~ Binomial(n, 1/2): the chance that the k-th smallest lies above the median.
  const below = (k: number) => {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += choose(i);
    return sum / 2 ** n;
  };
  let k = 1;
  while (k + 1 <= n / 2 && 1 - 2 * below(k + 1) >= 0.95) k++;
  return { median: median(sorted), low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * below(k) };
}

const signed = (value: number) => `${value >= 0 ? '+' : '−'}${fmt(Math.abs(value))}`;

const times = (value: number) => `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;

/** Median of the rounds' ratios hook / plain, with its interval. */
function pairedRatio(plain: RecordSample[], hook: RecordSample[], pick: (sample: RecordSample) => number): string {
  const ratios = plain.map((sample, index) => pick(hook[index]!) / pick(sample)).filter(Number.isFinite);
  if (ratios.length === 0) return 'n/a';
  const { median: middle, low, high } = medianInterval(ratios);
  return `**${times(middle)}** (${times(low)}–${times(high)})`;
}

/** Median of the rounds' differences hook − plain, in ms, with its interval. */
function pairedAdded(plain: RecordSample[], hook: RecordSample[], pick: (sample: RecordSample) => number): string {
  const { median: middle, low, high } = medianInterval(plain.map((sample, index) => pick(hook[index]!) - pick(sample)));
  const ms = (micros: number) => (micros / 1000).toFixed(2);
  return `+${ms(middle)} ms (${ms(low)}–${ms(high)})`;
}

const perPreparation = (counts: Record<string, number>) =>
  Object.keys(counts).length === 0
    ? 'none'
    : Object.entries(counts)
        .map(([kind, count]) => `${fmt(count, count % 1 === 0 ? 0 : 2)} ${kind.replace(/ (record|other) (\d+)$/, ' ($1, $2)')}`)
        .join(', ');

export function prepareRecordSection(result: PrepareRecordResult, add: (...text: string[]) => void): void {
  const rounds = result.storages[0]?.pairs[0]?.plain.length ?? 0;
  const { coverage } = medianInterval(Array.from({ length: rounds }, (_, index) => index));
  add(
    `### What the upload record costs (\`onUploadComplete\`, ${result.machine.date.slice(0, 10)}, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\` (${fmt(result.seconds)} s; \`RECORD_RADOSGW=0\`: local-s3 only). With \`onUploadComplete\`, every`,
    'preparation writes one signed record to storage (`packages/upload-server/src/upload-record.ts`) beside the URL signing or',
    "the STS call: one PUT presigned by the handler's own URL signer (`createUrlSigner`, `presign.ts`) and sent with Node's",
    '`fetch`, tried once more on a 5xx or a network error; no AWS SDK command. Each pair: the same handler and storage without',
    'a hook and with one (which also signs a receipt). Storage requests:',
    "counted by a proxy in front of storage (method, record or not, status) over 50 preparations one after the other",
    "and 500 ten at a time. CPU/request: the handler process's CPU time / requests answered under load; one at a time: median",
    `latency of 300 sequential preparations, storage otherwise idle. ${result.settings}. Ratios and differences: median of the`,
    `${rounds} rounds' paired values (with / without), in parentheses the interval of that median (order statistics, ${(coverage * 100).toFixed(0)} % coverage).`,
    '',
  );
  for (const storage of result.storages) {
    add(
      `**${storage.storage}**: ${storage.description}. Load average (1 min) at the end of each run: ${storage.load.map((value) => value.toFixed(1)).join(' / ')} (lowest / median / highest; 2 = both cores busy).`,
      '',
      '| strategy | storage requests per preparation (without / with) | req/s (without / with) | CPU/request (without / with) | **CPU/request: with / without** | p50 ms (without / with) | **p50: with / without** | p99 ms (without / with) | one at a time (without / with) | one at a time: added | failures |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const pair of storage.pairs) {
      const med = (samples: RecordSample[], pick: (sample: RecordSample) => number) => median(samples.map(pick));
      const both = (pick: (sample: RecordSample) => number, format: (value: number) => string) => `${format(med(pair.plain, pick))} / ${format(med(pair.hook, pick))}`;
      const failures = [...pair.plain, ...pair.hook].reduce((sum, sample) => sum + sample.failures, 0);
      add(
        `| ${pair.strategy === 'token' ? 'temporary-token (STS: local stub)' : 'presigned'} | ${perPreparation(pair.requests.plain)} / ${perPreparation(pair.requests.hook)} | ` +
          `${both((s) => s.requestsPerSecond, (v) => fmt(v))} | ${both((s) => s.cpuMicrosPerRequest, (v) => `${fmt(v)} µs`)} | ` +
          `${pairedRatio(pair.plain, pair.hook, (s) => s.cpuMicrosPerRequest)} | ${both((s) => s.p50, (v) => fmt(v))} | ` +
          `${pairedRatio(pair.plain, pair.hook, (s) => s.p50)} | ${both((s) => s.p99, (v) => fmt(v))} | ` +
          `${both((s) => s.sequentialMicros, (v) => `${(v / 1000).toFixed(2)} ms`)} | ${pairedAdded(pair.plain, pair.hook, (s) => s.sequentialMicros)} | ${failures} |`,
      );
    }
    add(
      '',
      'CPU the record adds per preparation (median of paired differences): ' +
        storage.pairs
          .map((pair) => {
            const added = medianInterval(pair.plain.map((sample, index) => pair.hook[index]!.cpuMicrosPerRequest - sample.cpuMicrosPerRequest));
            return `${pair.strategy} +${fmt(added.median)} µs (${fmt(added.low)}–${fmt(added.high)})`;
          })
          .join(', ') +
        '.',
      '',
    );
    for (const pair of storage.pairs) {
      if (!pair.lean) continue;
      const lean = pair.lean;
      const added = medianInterval(pair.plain.map((sample, index) => lean[index]!.cpuMicrosPerRequest - sample.cpuMicrosPerRequest));
      const beyond = medianInterval(pair.hook.map((sample, index) => sample.cpuMicrosPerRequest - lean[index]!.cpuMicrosPerRequest));
      add(
        `Bench only, a bare record-sized PUT (\`bench/src/prepare/lean-put.ts\`: SigV4 header signing with node:crypto, node:http keep-alive, ` +
          `a 220-byte body; no fetch, no record or receipt signing) beside the ${pair.strategy} handler without a hook: ` +
          `+${fmt(added.median)} µs CPU per preparation (${fmt(added.low)}–${fmt(added.high)}), CPU/request with / without ${pairedRatio(pair.plain, lean, (s) => s.cpuMicrosPerRequest)}, ` +
          `${fmt(median(lean.map((s) => s.requestsPerSecond)))} req/s, p50 ${fmt(median(lean.map((s) => s.p50)))} ms (${pairedRatio(pair.plain, lean, (s) => s.p50)}), ` +
          `one at a time ${pairedAdded(pair.plain, lean, (s) => s.sequentialMicros)}. ` +
          `The handler's record (its signing, the receipt's, the presigned URL and \`fetch\`) costs ` +
          `${signed(beyond.median)} µs CPU per preparation more than this bare PUT (${fmt(beyond.low)}–${fmt(beyond.high)}; paired hook − bare).`,
        '',
      );
    }
  }
  const profiled = result.storages.filter((storage) => storage.profile);
  if (profiled.length > 0) {
    const groups = [...new Set(profiled.flatMap((storage) => [...Object.keys(storage.profile!.plain), ...Object.keys(storage.profile!.hook)]))];
    const total = (values: Record<string, number>) => Object.values(values).reduce((sum, value) => sum + value, 0);
    add(
      'Where the presigned handler spends the CPU the record adds: a CPU profile of each server over ' +
        `${fmt(profiled[0]!.profile!.requests.plain)} requests under the same load (node:inspector, 100 µs sampling, its own cost included), self time per request by group of code:`,
      '',
      `| group (µs per request) | ${profiled.map((storage) => `${storage.storage}: without / with / added`).join(' | ')} |`,
      `| --- | ${profiled.map(() => '---:').join(' | ')} |`,
    );
    const cell = (plain: number, hook: number) => `${fmt(plain)} / ${fmt(hook)} / ${hook - plain >= 0 ? '+' : ''}${fmt(hook - plain)}`;
    for (const group of groups.sort((a, b) => (profiled[0]!.profile!.hook[b] ?? 0) - (profiled[0]!.profile!.hook[a] ?? 0))) {
      add(`| ${group} | ${profiled.map((storage) => cell(storage.profile!.plain[group] ?? 0, storage.profile!.hook[group] ?? 0)).join(' | ')} |`);
    }
    add(`| all | ${profiled.map((storage) => cell(total(storage.profile!.plain), total(storage.profile!.hook))).join(' | ')} |`, '');
    const share = (storage: (typeof profiled)[number], group: string) =>
      ((storage.profile!.hook[group] ?? 0) - (storage.profile!.plain[group] ?? 0)) / (total(storage.profile!.hook) - total(storage.profile!.plain));
    const percent = (value: number) => `${(value * 100).toFixed(0)} %`;
    const sdk = groups.filter((group) => group.startsWith('AWS SDK'));
    add(
      "Share of the added self time by group (the record's PUT is the handler's presigned URL sent with Node's `fetch`, undici): " +
        profiled
          .map((storage) => {
            const added = groups
              .map((group) => ({ group, share: share(storage, group) }))
              .filter(({ share: value }) => value > 0)
              .sort((a, b) => b.share - a.share);
            return `${storage.storage}: ${added.map(({ group, share: value }) => `${group.replace(/ \(.*\)$/, '')} ${percent(value)}`).join(', ')}`;
          })
          .join('; ') +
        `; outside the handler's own code: ${profiled.map((storage) => `${storage.storage} ${percent(1 - share(storage, '@upbeam/upload-server'))}`).join(', ')}. ` +
        (sdk.length === 0 ? 'No AWS SDK frame in either profile.' : `AWS SDK frames: ${profiled.map((storage) => `${storage.storage} ${sdk.map((group) => fmt(storage.profile!.hook[group] ?? 0)).join(' + ')} µs per request with the hook`).join(', ')}.`),
      '',
    );
  }
}

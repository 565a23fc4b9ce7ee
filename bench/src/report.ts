/**
 * Writes bench/RESULTS.md from the raw results in bench/results/*.json: the machine and versions, the
 * headline ratios, the issue's targets, and the tables (medians of the runs; every sample stays in the JSON).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleResult, BundleRow } from './bundle/run';
import type { ColdStartRoutesResult } from './cold-start/five-routes-run';
import type { ColdStartResult } from './cold-start/run';
import type { ColdStartTelemetryResult } from './cold-start/telemetry-run';
import type { Machine } from './lib/machine';
import { BENCH_DIR } from './lib/paths';
import { loadResult } from './lib/results';
import { fmt, kib, range, ratio } from './lib/stats';
import type { PrepareResult, PrepareRow } from './prepare/run';
import type { HugeResult } from './huge/run';
import { beforeAfterSection } from './report-before-after';
import { coldStartRoutesSection, coldStartSection } from './report-cold-start';
import { coldStartTelemetrySection } from './report-cold-start-telemetry';
import { prepareRecordSection } from './report-prepare-record';
import { limitsSection } from './report-limits';
import { persistScaleSection, prepareBatchSection } from './report-persist';
import type { PersistScaleResult } from './many-files/persist-scale';
import type { PrepareBatchResult } from './prepare/batch';
import { checksumFloorsSection, checksumsSection } from './report-checksums';
import type { ChecksumsResult } from './checksums/run';
import { hashingSection } from './report-hashing';
import type { HashingResult } from './hashing/run';
import { storageEventsSection } from './report-storage-events';
import type { LimitsResult } from './limits/run';
import type { StorageEventsResult } from './storage-events/run';
import type { PrepareRecordResult } from './prepare/record';
import { frameCostSection, manyFilesGrowthSection, manyFilesSection } from './report-many-files';
import { manyFilesPreviewsSection } from './report-previews';
import { leadInSection } from './report-lead-in';
import type { LeadInResultFile } from './lead-in/run';
import { folderDropSection } from './report-folder-drop';
import type { FolderDropResultFile } from './many-files/folder-drop';
import type { FrameCostResultFile } from './many-files/frame-cost';
import type { ManyFilesResultFile } from './many-files/run';
import { hugeSection, uploadSection } from './report-upload';
import { sendLoopTargetsSection } from './report-send-loop';
import { cpuTargetsRow, uploadCpuSection } from './report-upload-cpu';
import { loadPostResult, postSection } from './report-post';
import { targetsSection } from './report-targets';
import type { UploadResult } from './upload/run';

const lines: string[] = [];
const add = (...text: string[]) => lines.push(...text);

function machineTable(results: { name: string; machine: Machine; seconds: number }[]): void {
  const first = results[0]!.machine;
  add(
    '| | |',
    '| --- | --- |',
    `| machine | ${first.cpu}, ${first.cores} cores, ${first.memoryGiB} GiB |`,
    `| OS | ${first.os} |`,
    `| Node | ${first.node} |`,
    `| commit | ${first.commit} |`,
  );
  for (const { name, machine, seconds } of results) {
    const load = machine.load === undefined ? '' : `, load ${machine.load} at the end`;
    add(`| ${name} | ${machine.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}, ${fmt(seconds)} s${load} |`);
  }
  const versions = new Map<string, string>();
  for (const { machine } of results) for (const [name, version] of Object.entries(machine.versions)) versions.set(name, version);
  add(`| versions | ${[...versions].map(([name, version]) => `${name} ${version}`).join(', ')} |`, '');
}

const bundleTotal = (row: BundleRow, key: 'gzip' | 'brotli' | 'minified') => row.initial[key] + (row.lazy?.[key] ?? 0);

function bundleSection(result: BundleResult, headline: string[]): void {
  const row = (id: string) => result.rows.find((entry) => entry.id === id);
  const hook = row('upbeam-hook');
  const next = row('next-presigned');
  const nextS3 = row('next-s3');
  const floor = row('floor');
  const better = row('better-upload');
  if (hook && next && floor) {
    headline.push(
      `- **Bundle (gzip)**: Upbeam's \`useS3Upload\` ships ${kib(hook.initial.gzip)} to a presigned app in ` +
        `${hook.initial.files} chunks (${kib(hook.initial.gzipOneFile ?? hook.initial.gzip)} joined), ` +
        `${ratio(hook.initial.gzip, next.initial.gzip)} of next-s3-upload's \`usePresignedUpload\` (${kib(next.initial.gzip)}), ` +
        `${ratio(hook.initial.gzip, floor.initial.gzip)} the floor (${kib(floor.initial.gzip)})` +
        (better ? `, ${ratio(hook.initial.gzip, better.initial.gzip)} better-upload's hook (${kib(better.initial.gzip)})` : '') +
        '.',
    );
    const token = hook.lazyChunks?.find((chunk) => chunk.name.includes('temporary-token'));
    const multipart = hook.lazyChunks?.find((chunk) => chunk.name.includes('multipart'));
    if (nextS3 && token) {
      headline.push(
        `- **Bundle, lazy paths (gzip)**: the temporary-token path loads ${kib(token.gzipWithLoadsOneFile)} more on its first upload ` +
          `(${kib(token.gzipWithLoads)} as ${token.sizes.files} chunks)` +
          (multipart ? `, presigned multipart ${kib(multipart.gzipWithLoadsOneFile)} on the first file at or above the threshold` : '') +
          `; next-s3-upload's \`useS3Upload\` ships ${kib(nextS3.initial.gzip)} at once ` +
          `(Upbeam's initial chunk + every lazy chunk: ${ratio(bundleTotal(hook, 'gzip'), bundleTotal(nextS3, 'gzip'))} of it).`,
      );
    }
  }
  add('## 1. Client bundle size', '', result.settings + '.', '');
  add(
    'Sizes are deterministic: one build each. "At first" is what the page loads when the client is imported; "lazy" is',
    'loaded later with `import()` (Upbeam: the temporary-token strategy and the presigned multipart engine; next-s3-upload: the',
    'SDK\'s own lazy user-agent parser). Each chunk is compressed on its own, as a server sends it; "one file" gzips the same chunks',
    'joined. esbuild\'s code splitting also puts its runtime helpers and code shared with the lazy chunks in chunks',
    'loaded at first: size-limit (`npm test`), which bundles the initial chunk alone, measures less.',
    '',
    '| client | at first: chunks | minified | gzip | gzip, one file | brotli | lazy: gzip | brotli | total gzip |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const entry of result.rows) {
    add(
      `| ${entry.label} | ${entry.initial.files} | ${kib(entry.initial.minified)} | ${kib(entry.initial.gzip)} | ` +
        `${kib(entry.initial.gzipOneFile ?? entry.initial.gzip)} | ${kib(entry.initial.brotli)} | ` +
        `${entry.lazy ? kib(entry.lazy.gzip) : '–'} | ${entry.lazy ? kib(entry.lazy.brotli) : '–'} | ${kib(bundleTotal(entry, 'gzip'))} |`,
    );
  }
  const withLazy = result.rows.filter((entry) => (entry.lazyChunks ?? []).length > 0);
  if (withLazy.length > 0) {
    add(
      '',
      'The lazy chunks one `import()` at a time: the chunk the call loads with the chunks it imports statically, and',
      'all it may download when its own `import()`s run too.',
      '',
      '| client | lazy chunk | gzip | brotli | loads in turn | gzip with what it loads |',
      '| --- | --- | ---: | ---: | --- | ---: |',
    );
    for (const entry of withLazy) {
      for (const chunk of entry.lazyChunks!) {
        add(
          `| ${entry.label} | ${chunk.name || 'unnamed'} | ${kib(chunk.sizes.gzip)} | ${kib(chunk.sizes.brotli)} | ` +
            `${chunk.loads.join(', ') || '–'} | ${kib(chunk.gzipWithLoads)} |`,
        );
      }
    }
  }
  if (result.budgets) {
    add('', 'The repository\'s byte budgets (`pnpm size`: size-limit, each measured as one bundle, gzip), same run:', '', '| budget | size | limit | |', '| --- | ---: | ---: | --- |');
    for (const budget of result.budgets) {
      add(`| ${budget.name} | ${fmt(budget.size)} B | ${fmt(budget.limit)} B | ${budget.passed ? 'within' : '**exceeded**'} |`);
    }
  }
  add('', '| ratio (at first) | gzip | brotli |', '| --- | ---: | ---: |');
  const pairs: [string, string, string][] = [
    ['upbeam-hook', 'next-presigned', 'Upbeam `useS3Upload` / next-s3-upload `usePresignedUpload`'],
    ['upbeam-hook', 'next-s3', 'Upbeam `useS3Upload` / next-s3-upload `useS3Upload`'],
    ['upbeam-hook', 'better-upload', 'Upbeam `useS3Upload` / @better-upload/client `useUploadFile`'],
    ['upbeam-hook', 'floor', 'Upbeam `useS3Upload` / floor'],
    ['upbeam-client', 'floor', 'Upbeam `uploadFile` / floor'],
  ];
  for (const [ours, other, label] of pairs) {
    const a = row(ours);
    const b = row(other);
    if (a && b) add(`| ${label} | ${ratio(a.initial.gzip, b.initial.gzip)} | ${ratio(a.initial.brotli, b.initial.brotli)} |`);
  }
  if (hook && nextS3) {
    add(
      `| Upbeam temporary-token total (at first + lazy) / next-s3-upload \`useS3Upload\` total | ${ratio(bundleTotal(hook, 'gzip'), bundleTotal(nextS3, 'gzip'))} | ${ratio(bundleTotal(hook, 'brotli'), bundleTotal(nextS3, 'brotli'))} |`,
    );
  }
  add('');
}

/** The issue's target: Upbeam's presigned preparation answers at least this share of the bare node:http ceiling. */
const PREPARE_TARGET = 0.2;

/**
 * Met only when both ratios reach the target: on a busy machine the req/s of the ceiling swings by tens of
 * times from run to run, and the CPU time per request says what each request costs.
 */
function targetVerdict(share: number, cpuShare: number): string {
  if (share >= PREPARE_TARGET && cpuShare >= PREPARE_TARGET) return 'met';
  if (cpuShare < PREPARE_TARGET) return '**not met** by CPU per request';
  return '**not met** in req/s';
}

function prepareSection(result: PrepareResult, headline: string[]): void {
  const row = (id: string) => result.rows.find((entry) => entry.id === id);
  const rps = (id: string) => row(id)?.median.requestsPerSecond;
  if (row('upbeam-presigned') && row('bare-http')) {
    const share = rps('upbeam-presigned')! / rps('bare-http')!;
    const cpuShare = row('bare-http')!.median.cpuMicrosPerRequest! / row('upbeam-presigned')!.median.cpuMicrosPerRequest!;
    headline.push(
      `- **Preparation endpoint**: Upbeam presigned answers ${fmt(rps('upbeam-presigned'))} req/s, ` +
        `${ratio(rps('upbeam-presigned'), rps('bare-http'))} a bare \`node:http\` JSON handler (${fmt(rps('bare-http'))} req/s; ` +
        `by CPU per request ${ratio(cpuShare, 1)}; target >= ${PREPARE_TARGET}×: ${targetVerdict(share, cpuShare)}), ` +
        `${ratio(rps('upbeam-presigned'), rps('getsignedurl'))} \`getSignedUrl\` with a new command per request, ` +
        `${ratio(rps('upbeam-presigned'), rps('next-presigned'))} next-s3-upload's route; temporary-token ` +
        `${fmt(rps('upbeam-token'))} req/s, ${ratio(rps('upbeam-token'), rps('next-token'))} next-s3-upload's. ` +
        `The SDK's presigner built once (Upbeam's signing before \`sigv4-query.ts\`) answers ${fmt(rps('prepared-signer'))} req/s ` +
        `(${ratio(rps('prepared-signer'), rps('upbeam-presigned'))} Upbeam's handler).`,
    );
  }
  add('## 2. Preparation endpoint throughput', '', result.settings + '.', '');
  add(
    'Median of the rounds; req/s = requests answered / seconds of load; latency from autocannon, whole milliseconds;',
    "CPU/request = the server process's own CPU time (user + system) over the run / requests answered, which other",
    "processes on the machine change much less than req/s. Every server answered one checked request before the load (a",
    'URL, or credentials from the STS stub); failures under load are counted.' +
      (result.load ? ` Load average (1 min) at the end of each run: ${result.load.map((value) => value.toFixed(1)).join(' / ')} (lowest / median / highest; 2 = both cores busy).` : ''),
    '',
    '| handler | req/s | (min–max) | CPU/request | p50 ms | p99 ms | failures | / bare node:http | / bare Fetch | by CPU: / bare node:http |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  const cpu = (id: string) => row(id)?.median.cpuMicrosPerRequest;
  for (const entry of result.rows) {
    const [low, high] = range(entry.samples.map((sample) => sample.requestsPerSecond));
    const failures = entry.samples.reduce((sum, sample) => sum + sample.failures, 0);
    const micros = entry.median.cpuMicrosPerRequest;
    add(
      `| ${entry.label} | ${fmt(entry.median.requestsPerSecond)} | ${fmt(low)}–${fmt(high)} | ${micros === undefined ? 'n/a' : `${fmt(micros)} µs`} | ` +
        `${fmt(entry.median.p50)} | ${fmt(entry.median.p99)} | ${failures} | ` +
        `${ratio(entry.median.requestsPerSecond, rps('bare-http'))} | ${ratio(entry.median.requestsPerSecond, rps('bare-fetch'))} | ` +
        `${ratio(cpu('bare-http'), micros)} |`,
    );
  }
  add('', '| ratio (req/s; by CPU/request in parentheses) | |', '| --- | ---: |');
  const pairs: [string, string, string][] = [
    ['upbeam-presigned', 'bare-http', `Upbeam presigned / bare \`node:http\` (ceiling; target >= ${PREPARE_TARGET})`],
    ['upbeam-presigned', 'bare-fetch', 'Upbeam presigned / bare Fetch handler (adapter ceiling)'],
    ['bare-fetch', 'bare-http', 'bare Fetch handler through `toNodeHandler` / bare `node:http` (the adapter alone)'],
    ['upbeam-presigned', 'getsignedurl', 'Upbeam presigned / `getSignedUrl` + new command per request'],
    ['upbeam-presigned', 'next-presigned', 'Upbeam presigned / next-s3-upload presigned'],
    ['upbeam-token', 'next-token', 'Upbeam temporary-token / next-s3-upload temporary-token'],
    ['prepared-signer', 'upbeam-presigned', "the SDK's presigner built once (Upbeam's old signing) / Upbeam presigned"],
  ];
  for (const [a, b, label] of pairs) if (row(a) && row(b)) add(`| ${label} | ${ratio(rps(a), rps(b))} (${ratio(cpu(b), cpu(a))}) |`);
  add('');
  if (result.profile) profileSection(result.profile);
}

/** Where Upbeam's presigned preparation spends its CPU: the top frames and packages of the profile. */
function profileSection(profile: NonNullable<PrepareResult['profile']>): void {
  const share = (value: number) => `${(value * 100).toFixed(1)} %`;
  add(
    '### CPU profile of the presigned preparation',
    '',
    `${profile.command}: ${fmt(profile.busyMs)} ms busy (${fmt((profile.busyMs * 1000) / profile.requests)} µs per request, ` +
      `the profiler's own cost included), ${fmt(profile.idleMs)} ms idle. Self time, share of the busy time; the raw profile is ` +
      '`bench/results/prepare-presigned.cpuprofile` (not committed: open it in Chrome DevTools).',
    '',
    '| frame (self time) | share | | package (self time) | share |',
    '| --- | ---: | --- | --- | ---: |',
  );
  const rows = Math.max(profile.top.length, profile.byPackage.length);
  for (let index = 0; index < rows; index++) {
    const frame = profile.top[index];
    const pkg = profile.byPackage[index];
    add(
      `| ${frame ? `\`${frame.frame}\`` : ''} | ${frame ? share(frame.share) : ''} | | ${pkg ? `\`${pkg.frame}\`` : ''} | ${pkg ? share(pkg.share) : ''} |`,
    );
  }
  add('');
}

/** The last section of RESULTS.md: where the dated measurements behind design choices are (bench/notes/). */
const DESIGN_NOTES_POINTER = [
  '## 5. One-off measurements behind design choices',
  '',
  'Dated experiments, each measured once to choose between two designs, are in [notes/](notes/README.md), one file per topic.',
];

/** Rewrites RESULTS.md from whatever results exist; returns its path. */
export async function writeReport(): Promise<string> {
  lines.length = 0;
  const bundle = await loadResult<BundleResult>('bundle');
  const prepare = await loadResult<PrepareResult>('prepare');
  const prepareRecord = await loadResult<PrepareRecordResult>('prepare-record');
  const limits = await loadResult<LimitsResult>('limits');
  const storageEvents = await loadResult<StorageEventsResult>('storage-events');
  const checksums = await loadResult<ChecksumsResult>('checksums');
  const checksumFloors = await loadResult<ChecksumsResult>('checksums-floors');
  const hashing = await loadResult<HashingResult>('hashing');
  const coldStart = await loadResult<ColdStartResult>('cold-start');
  const coldStartRoutes = await loadResult<ColdStartRoutesResult>('cold-start-routes');
  const coldStartTelemetry = await loadResult<ColdStartTelemetryResult>('cold-start-telemetry');
  const upload = await loadResult<UploadResult>('upload');
  const manyFiles = await loadResult<ManyFilesResultFile>('many-files');
  const manyFilesGrowth = await loadResult<ManyFilesResultFile>('many-files-growth');
  const manyFilesPreviews = await loadResult<ManyFilesResultFile>('many-files-previews');
  const leadIn = await loadResult<LeadInResultFile>('lead-in');
  const folderDrop = await loadResult<FolderDropResultFile>('many-files-folder');
  const frameCost = await loadResult<FrameCostResultFile>('many-files-frame-cost');
  const huge = await loadResult<HugeResult>('huge');
  const persistScale = await loadResult<PersistScaleResult>('persist-scale');
  const prepareBatch = await loadResult<PrepareBatchResult>('prepare-batch');
  const uploadTrace = await loadResult<UploadResult>('upload-trace');
  const uploadCpu = await loadResult<UploadResult>('upload-cpu');
  const uploadBeforeAfter = await loadResult<UploadResult>('upload-before-after');
  const manyFilesBeforeAfter = await loadResult<ManyFilesResultFile>('many-files-before-after');
  const headline: string[] = [];
  add(
    '# Benchmarks',
    '',
    'Written by `pnpm bench` at the repository root (build, then `bench/src/main.ts all`); the raw samples are in',
    '`bench/results/*.json`. Each table comes from one run that measures Upbeam, the alternatives and the floor',
    'together, taking turns, so that the ratios hold on a noisy machine; absolute figures vary from run to run.',
    '',
    '## Machine and versions',
    '',
  );
  const measured = [
    bundle && { name: 'bundle size', machine: bundle.machine, seconds: bundle.seconds },
    prepare && { name: 'preparation', machine: prepare.machine, seconds: prepare.seconds },
    coldStart && { name: 'cold start', machine: coldStart.machine, seconds: coldStart.seconds },
    upload && { name: 'upload', machine: upload.machine, seconds: upload.seconds },
    manyFiles && { name: 'many files', machine: manyFiles.machine, seconds: manyFiles.seconds },
    manyFilesGrowth && { name: 'a batch joining a list', machine: manyFilesGrowth.machine, seconds: manyFilesGrowth.seconds },
    frameCost && { name: 'one frame of a long list', machine: frameCost.machine, seconds: frameCost.seconds },
    manyFilesPreviews && { name: 'many photos with previews', machine: manyFilesPreviews.machine, seconds: manyFilesPreviews.seconds },
    leadIn && { name: 'lead-in', machine: leadIn.machine, seconds: leadIn.seconds },
    folderDrop && { name: 'a folder of 50,000 files', machine: folderDrop.machine, seconds: folderDrop.seconds },
    huge && { name: 'file over 5 GiB', machine: huge.machine, seconds: huge.seconds },
    uploadTrace && { name: 'traced uploads', machine: uploadTrace.machine, seconds: uploadTrace.seconds },
    uploadCpu && { name: 'client CPU per GiB', machine: uploadCpu.machine, seconds: uploadCpu.seconds },
  ].filter((entry): entry is { name: string; machine: Machine; seconds: number } => Boolean(entry));
  if (measured.length > 0) machineTable(measured);
  const headlineAt = lines.length;
  if (bundle) bundleSection(bundle, headline);
  if (prepare) prepareSection(prepare, headline);
  if (prepareRecord) prepareRecordSection(prepareRecord, add);
  if (coldStart) coldStartSection(coldStart, add, headline);
  if (coldStartRoutes) coldStartRoutesSection(coldStartRoutes, add);
  if (coldStartTelemetry) coldStartTelemetrySection(coldStartTelemetry, add);
  if (limits) limitsSection(limits, add);
  if (storageEvents) storageEventsSection(storageEvents, add);
  if (checksums) checksumsSection(checksums, add);
  if (checksumFloors) checksumFloorsSection(checksumFloors, add);
  if (hashing) hashingSection(hashing, add);
  if (prepareBatch) prepareBatchSection(prepareBatch, add);
  if (upload) uploadSection(upload, add, headline);
  if (manyFiles) manyFilesSection(manyFiles, add, headline);
  if (manyFilesGrowth) manyFilesGrowthSection(manyFilesGrowth, add);
  if (frameCost) frameCostSection(frameCost, add);
  beforeAfterSection(uploadBeforeAfter, manyFilesBeforeAfter, add);
  if (manyFilesPreviews) manyFilesPreviewsSection(manyFilesPreviews, add);
  // Issues 45 and 47, in the order of their section letters (3g to 3k).
  if (uploadCpu) uploadCpuSection(uploadCpu, add);
  const post = await loadPostResult();
  if (post) postSection(post, add);
  if (persistScale) persistScaleSection(persistScale, add);
  if (folderDrop) folderDropSection(folderDrop, add);
  if (leadIn) leadInSection(leadIn, add);
  if (huge) hugeSection(huge, add, headline);
  const targets: string[] = [];
  targetsSection(bundle, upload, huge, (...text) => targets.push(...text));
  if (upload) sendLoopTargetsSection(upload, uploadTrace, (...text) => targets.push(...text), Boolean(uploadCpu));
  if (uploadCpu) cpuTargetsRow(uploadCpu, (...text) => targets.push(...text));
  lines.splice(headlineAt, 0, '## Headline ratios', '', ...headline, '', ...targets);
  // The one-off measurements behind design choices are dated history, hand-kept in bench/notes/ (never
  // re-measured, never written here): RESULTS.md ends with a pointer there, under the heading the docs link to.
  add('', ...DESIGN_NOTES_POINTER);
  const path = join(BENCH_DIR, 'RESULTS.md');
  await writeFile(path, `${lines.join('\n').trimEnd()}\n`);
  return path;
}


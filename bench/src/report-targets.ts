/**
 * The targets of the issue "Large files at the speed of the wire", checked against the results: one row a
 * target, with the figures behind it and whether it is met.
 */
import type { BundleResult } from './bundle/run';
import type { HugeResult } from './huge/run';
import { fmt, kib, mib } from './lib/stats';
import { uploadLookups, type Add, type Ratio } from './report-upload';
import type { UploadResult } from './upload/run';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The issue's numbers. */
const SINGLE_PUT_MIN = 0.85;
const MULTIPART_MIN = 0.9;
const HEAP_GROWTH_MAX = 16 * MiB;
const LONG_TASK_MAX_MS = 50;
const TOKEN_CHUNK_MAX = 12 * KiB;

export const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? '**met**' : '**missed**');
const times = (value: number) => `${value.toFixed(2)}×`;

export function targetsSection(
  bundle: BundleResult | undefined,
  upload: UploadResult | undefined,
  huge: HugeResult | undefined,
  add: Add,
): void {
  add(
    '## Targets of "Large files at the speed of the wire"',
    '',
    '| target | measured | |',
    '| --- | --- | --- |',
  );
  if (upload) {
    const { mbps, floorOf, targets, sizesOf, cell, ratios } = uploadLookups(upload);
    const row = (name: string, found: Ratio[], min: number) => {
      const met = found.length === 0 ? undefined : found.every((entry) => entry.value >= min);
      add(`| ${name} | ${found.map((entry) => entry.text).join('; ') || '–'} | ${verdict(met)} |`);
    };
    row(
      `single PUT, either strategy: >= ${SINGLE_PUT_MIN}× \`curl -T\``,
      ratios(['upbeam-presigned-put', 'upbeam-token-put'], () => 'curl'),
      SINGLE_PUT_MIN,
    );
    row(
      `multipart, either strategy: >= ${MULTIPART_MIN}× the curl multipart floor (same parts, same concurrency)`,
      ratios(['upbeam-presigned-multipart', 'upbeam-token-multipart'], floorOf),
      MULTIPART_MIN,
    );
    // Where the two throughput targets stand against the browser itself: the same work done bare in chromium
    // (28-line XHR PUT; bare XHR multipart of `Blob.slice()` parts), and Upbeam against that bare work.
    const versus = (floor: string) => (entry: { text: string; value: number }) => ({ ...entry, text: entry.text.replace(/^(\S+)/, `$1 / ${floor}`) });
    const browserFloor = [
      ...ratios(['floor-xhr'], () => 'curl').map(versus('curl -T')),
      ...ratios(['floor-xhr-multipart'], floorOf).map(versus('curl multipart')),
      ...ratios(['upbeam-presigned-put', 'upbeam-token-put'], () => 'floor-xhr').map(versus('floor-xhr')),
      ...ratios(['upbeam-presigned-multipart', 'upbeam-token-multipart'], () => 'floor-xhr-multipart').map(versus('floor-xhr-multipart')),
    ];
    add(
      `| (the browser's own ceiling, same rounds: the bare XHR floors against curl's, then Upbeam against the bare XHR floors) | ${browserFloor.map((entry) => entry.text).join('; ') || '–'} | measured |`,
    );
    // On a machine whose cores the client and the storage share, an upload cannot take less wall time than
    // the CPU seconds both spend on it over the cores: the best ratio a client's CPU use leaves it. With the
    // cores split (the client on one, the servers on the rest), neither can take less than its own CPU seconds
    // over its own cores.
    const cores = upload.machine.cores;
    const split = upload.cores !== undefined;
    const shortest = (client: number, storage: number) => (split ? Math.max(client, storage / (cores - 1)) : (client + storage) / cores);
    const cpuBound: string[] = [];
    for (const [mode, floorFor] of [
      ['upbeam-presigned-put', () => 'curl'],
      ['upbeam-presigned-multipart', floorOf],
    ] as const) {
      for (const target of targets) {
        for (const size of sizesOf(target)) {
          const m = cell(target, size, mode)?.median;
          const floorId = floorFor(mode);
          const floor = floorId && mbps(target, size, floorId);
          if (!m?.clientCpuSeconds || m.storageCpuSeconds === undefined || !floor) continue;
          const shortestSeconds = shortest(m.clientCpuSeconds, m.storageCpuSeconds);
          cpuBound.push(`${mode.replace('upbeam-', '')} ${target} ${size} MiB at most ${times((size * MiB) / 1e6 / shortestSeconds / floor)}`);
        }
      }
    }
    add(
      `| (the CPU bound on ${cores} cores: ${split ? `the client on core ${upload.cores!.client}, storage on core ${upload.cores!.servers}: the larger of chromium's CPU seconds and storage's over its cores` : "(chromium's + storage's CPU seconds) / cores"} is the shortest time the upload can take; the best ratio to the target's floor that leaves) | ${cpuBound.join('; ') || '–'} | measured |`,
    );
    const checksumCost = ratios(['upbeam-presigned-put-md5', 'upbeam-presigned-multipart-md5'], (mode) => mode.replace(/-md5$/, ''));
    add(
      `| (issue "Integrity and diagnostics": the cost of \`checksum: 'md5'\`, throughput with it / without it, same run) | ${checksumCost.map((entry) => entry.text).join('; ') || '–'} | measured |`,
    );
    // Every Upbeam mode, `checksum: 'md5'` included: it is on by default where storage verifies it.
    const ours = upload.modes.filter((mode) => mode.id.startsWith('upbeam-'));
    const heapBySize: string[] = [];
    const taskBySize: string[] = [];
    let heapMax: number | undefined;
    let taskMax: number | undefined;
    for (const target of targets) {
      for (const size of sizesOf(target)) {
        const medians = ours.map((mode) => cell(target, size, mode.id)?.median).filter((m) => m !== undefined);
        const growth = medians.map((m) => m.heapGrowthMax).filter((value): value is number => value !== undefined);
        const tasks = medians.map((m) => m.longTaskMaxMs).filter((value): value is number => value !== undefined);
        if (growth.length > 0) {
          heapBySize.push(`${target} ${size} MiB +${mib(Math.max(...growth))}`);
          heapMax = Math.max(heapMax ?? 0, ...growth);
        }
        if (tasks.length > 0) {
          taskBySize.push(`${target} ${size} MiB ${Math.max(...tasks)} ms`);
          taskMax = Math.max(taskMax ?? 0, ...tasks);
        }
      }
    }
    add(
      `| page heap growth (JS + ArrayBuffers) <= ${HEAP_GROWTH_MAX / MiB} MiB, flat with file size (largest of Upbeam's modes, MiB) | ${heapBySize.join('; ') || '–'} | ${verdict(heapMax === undefined ? undefined : heapMax <= HEAP_GROWTH_MAX)} |`,
      `| no main-thread task over ${LONG_TASK_MAX_MS} ms during an upload (longest of Upbeam's modes; 0 = none) | ${taskBySize.join('; ') || '–'} | ${verdict(taskMax === undefined ? undefined : taskMax <= LONG_TASK_MAX_MS)} |`,
    );
  }
  if (bundle) {
    const hook = bundle.rows.find((row) => row.id === 'upbeam-hook');
    const token = hook?.lazyChunks?.find((chunk) => chunk.name.includes('temporary-token'));
    // Judged as size-limit measures a budget (the chunks joined, one gzip); esbuild's split for this app is shown
    // beside it. The chunks it may load in turn (the checksum's, only with `checksum: 'md5'`) are not counted.
    add(
      `| temporary-token path's lazy chunk <= ${TOKEN_CHUNK_MAX / KiB} KiB gzip (all a token upload downloads after the initial chunk, as one file) | ` +
        (token
          ? `${kib(token.sizes.gzipOneFile)} (${fmt(token.sizes.gzipOneFile)} B); as esbuild splits it for the bench's app, ` +
            `${token.sizes.files} chunks gzipped apart: ${kib(token.sizes.gzip)} (${fmt(token.sizes.gzip)} B)` +
            `${token.loads.length > 0 ? `; loaded in turn only when asked for: ${token.loads.join(', ')} (${kib(token.gzipWithLoadsOneFile)} with them)` : ''}`
          : '–') +
        ` | ${verdict(token ? token.sizes.gzipOneFile <= TOKEN_CHUNK_MAX : undefined)} |`,
    );
    const budgets = bundle.budgets ?? [];
    add(
      `| the presigned path within its budget (size-limit, gzip) | ${budgets.map((budget) => `${budget.name}: ${budget.size} B of ${budget.limit} B`).join('; ') || '–'} | ` +
        `${verdict(budgets.length === 0 ? undefined : budgets.every((budget) => budget.passed))} |`,
    );
  }
  add(
    `| a file larger than 5 GiB, presigned, bytes checked | ${huge ? (huge.ok ? `${(huge.bytes / MiB).toFixed(0)} MiB, SHA-256 equal` : `failed: ${huge.sample.error ?? 'hash differs'}`) : '–'} | ${verdict(huge?.ok)} |`,
    '',
  );
  const load = upload ? /during the run: ([\d.]+ to [\d.]+, median [\d.]+)/.exec(upload.settings)?.[1] : undefined;
  if (load) {
    add(
      `Load average during the upload table: ${load} (2 = both cores busy). Ratios come from the same rounds, but`,
      'chromium and curl do not suffer a starved CPU alike (chromium spends several times more CPU per byte: see the CPU',
      'tables), and long tasks are wall time: on a busy machine a task that waits for a core is counted as long.',
      '',
    );
  }
}

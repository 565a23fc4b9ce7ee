/**
 * The upload sections of RESULTS.md: MB/s beside both curl floors, the page's heap and long tasks, the
 * multipart floor's time split, and the opt-in upload of a file over 5 GiB.
 */
import type { HugeResult } from './huge/run';
import { fmt, median, mib, ratio } from './lib/stats';
import type { PartSettings, UploadCell, UploadResult } from './upload/run';

/** Appends lines to the report. */
export type Add = (...text: string[]) => void;

const MiB = 1024 * 1024;

/** Lookups over one upload result. */
export function uploadLookups(result: UploadResult) {
  const cell = (target: string, size: number, mode: string): UploadCell | undefined =>
    result.cells.find((entry) => entry.target === target && entry.sizeMiB === size && entry.mode === mode);
  const mbps = (target: string, size: number, mode: string) => cell(target, size, mode)?.median?.mbPerSecond;
  const modeOf = (id: string) => result.modes.find((mode) => mode.id === id);
  const sameParts = (a?: PartSettings, b?: PartSettings) => a !== undefined && b !== undefined && a.partSize === b.partSize && a.queueSize === b.queueSize;
  /** The curl multipart floor sending the same parts as `id` (itself for a floor), when there is one. */
  const floorOf = (id: string) => {
    const parts = modeOf(id)?.parts;
    return result.modes.find((mode) => mode.kind === 'curl-multipart' && sameParts(mode.parts, parts))?.id;
  };
  const targets = [...new Set(result.cells.map((entry) => entry.target))];
  const sizesOf = (target: string) =>
    [...new Set(result.cells.filter((entry) => entry.target === target).map((entry) => entry.sizeMiB))].sort((a, b) => a - b);
  /** Each of `modes`' MB/s over its floor's (`floorFor`) in every cell that has both, e.g. `presigned-put s3rver 128 MiB 0.97×`. */
  const ratios = (modes: string[], floorFor: (mode: string) => string | undefined): Ratio[] => {
    const found: Ratio[] = [];
    for (const mode of modes) {
      for (const target of targets) {
        for (const size of sizesOf(target)) {
          const floor = floorFor(mode);
          const ours = mbps(target, size, mode);
          const base = floor && mbps(target, size, floor);
          if (ours === undefined || !base) continue;
          const value = ours / base;
          found.push({ text: `${mode.replace('upbeam-', '')} ${target} ${size} MiB ${value.toFixed(2)}×`, value });
        }
      }
    }
    return found;
  };
  /**
   * Each of `modes` over `floor`, paired by round: in round k both ran one after the other (in an order that
   * turns each round), so a noisy moment of the machine or the storage falls on both. The median of the
   * rounds' ratios of MB/s, with their range, and the median of the rounds' ratios of client CPU seconds (a
   * client that costs more CPU per byte shows there even where storage decides the time).
   */
  const pairedRatios = (modes: string[], floor: string): Ratio[] => {
    const found: Ratio[] = [];
    for (const mode of modes) {
      for (const target of targets) {
        for (const size of sizesOf(target)) {
          const ours = cell(target, size, mode)?.samples ?? [];
          const base = cell(target, size, floor)?.samples ?? [];
          const pairs = ours.flatMap((sample, round) => {
            const other = base[round];
            return sample.mbPerSecond && other?.mbPerSecond ? [{ ours: sample, other }] : [];
          });
          if (pairs.length === 0) continue;
          const speeds = pairs.map(({ ours, other }) => ours.mbPerSecond! / other.mbPerSecond!);
          const cpu = pairs.filter(({ ours, other }) => ours.clientCpuSeconds && other.clientCpuSeconds);
          const value = median(speeds);
          const cpuText = cpu.length > 0 ? `, CPU ${median(cpu.map(({ ours, other }) => ours.clientCpuSeconds! / other.clientCpuSeconds!)).toFixed(2)}×` : '';
          found.push({
            text: `${mode.replace('upbeam-', '')} ${target} ${size} MiB ${value.toFixed(2)}× (${Math.min(...speeds).toFixed(2)}-${Math.max(...speeds).toFixed(2)} over ${pairs.length} rounds${cpuText})`,
            value,
          });
        }
      }
    }
    return found;
  };
  return { cell, mbps, modeOf, floorOf, targets, sizesOf, ratios, pairedRatios };
}

/** One client's throughput over a floor's in one cell: the text of the targets table and the value. */
export interface Ratio {
  text: string;
  value: number;
}

/** Medians of the client's CPU seconds by chromium process over a cell's runs, e.g. `renderer 2.1, network 3.0`. */
function byProcess(entry: UploadCell | undefined): string {
  const samples = (entry?.samples ?? []).filter((sample) => sample.clientCpuByProcess && sample.error === undefined);
  if (samples.length === 0) return '–';
  const kinds = [...new Set(samples.flatMap((sample) => Object.keys(sample.clientCpuByProcess!)))];
  return kinds
    .map((kind) => [kind, median(samples.map((sample) => sample.clientCpuByProcess![kind] ?? 0))] as const)
    .filter(([, seconds]) => seconds >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, seconds]) => `${kind} ${seconds.toFixed(1)}`)
    .join(', ');
}

const sizeLabel = (size: number) => (size >= 1024 && size % 1024 === 0 ? `${size / 1024} GiB` : `${size} MiB`);

export function uploadSection(result: UploadResult, add: Add, headline: string[]): void {
  const { cell, mbps, modeOf, floorOf, targets, sizesOf } = uploadLookups(result);
  const parts: string[] = [];
  for (const target of targets) {
    for (const size of sizesOf(target)) {
      const put = mbps(target, size, 'upbeam-presigned-put');
      const multipart = mbps(target, size, 'upbeam-presigned-multipart');
      const floorId = floorOf('upbeam-presigned-multipart');
      const floor = floorId === undefined ? undefined : mbps(target, size, floorId);
      parts.push(
        `${target} ${sizeLabel(size)}: presigned one PUT ${fmt(put)} MB/s = ${ratio(put, mbps(target, size, 'curl'))} \`curl -T\`, ` +
          `presigned multipart ${fmt(multipart)} MB/s = ${ratio(multipart, floor)} the curl multipart floor ` +
          `(which is ${ratio(floor, mbps(target, size, 'curl'))} \`curl -T\`)`,
      );
    }
  }
  if (parts.length > 0) headline.push(`- **Upload MB/s** (same file, same server, same run): ${parts.join('; ')}.`);

  add('## 3. Upload throughput, memory and main thread in chromium', '', result.settings + '.', '');
  for (const [name, description] of Object.entries(result.targets)) add(`- ${name}: ${description}`);
  add(
    '',
    'Two floors: `curl -T` sends the whole file in one PutObject; the curl multipart floor sends the same parts as',
    "the engine's multipart modes (same part size, as many at once as its queue size) to presigned UploadPart URLs,",
    'between a CreateMultipartUpload and a CompleteMultipartUpload made by the benchmark. "× curl -T" and "× multipart',
    'floor" divide a client\'s MB/s by the floor\'s in the same rounds. One PUT is compared with `curl -T`, multipart with',
    'the multipart floor: what storage does with parts (s3rver rewrites the whole object on complete) caps every multipart client.',
    '',
  );
  const label = (id: string) => modeOf(id)?.label ?? id;
  for (const target of targets) {
    const sizes = sizesOf(target);
    const runs = sizes.map((size) => `${cell(target, size, 'curl')?.samples.length ?? '?'} at ${sizeLabel(size)}`).join(', ');
    add(
      `### ${target}: MB/s, median of the rounds (${runs})`,
      '',
      `| client | ${sizes.map((size) => `${sizeLabel(size)} MB/s | × curl -T | × multipart floor`).join(' | ')} |`,
      `| --- | ${sizes.map(() => '---: | ---: | ---:').join(' | ')} |`,
    );
    for (const mode of result.modes) {
      const values = sizes.map((size) => {
        const entry = cell(target, size, mode.id);
        if (!entry) return '– | – | –';
        const failed = entry.samples.filter((sample) => sample.error !== undefined);
        const failure = failed.length > 0 ? ` (${failed.length} of ${entry.samples.length} failed: ${failed[0]!.error})` : '';
        const value = entry.median?.mbPerSecond;
        if (value === undefined) return `failed: ${failed[0]?.error ?? '?'} | – | –`;
        const floor = floorOf(mode.id);
        const versusFloor = floor ? ratio(value, mbps(target, size, floor)) : '–';
        return `${fmt(value)}${failure} | ${ratio(value, mbps(target, size, 'curl'))} | ${versusFloor}`;
      });
      add(`| ${label(mode.id)} | ${values.join(' | ')} |`);
    }
    add('');
    const floors = result.modes.filter((mode) => mode.kind === 'curl-multipart');
    for (const floor of floors) {
      const split = sizes
        .map((size) => {
          const m = cell(target, size, floor.id)?.median;
          return m?.partsSeconds === undefined
            ? undefined
            : `${sizeLabel(size)}: create + presign ${fmt(m.createSeconds, 2)} s, parts ${fmt(m.partsSeconds, 1)} s, CompleteMultipartUpload ${fmt(m.completeSeconds, 1)} s`;
        })
        .filter(Boolean);
      if (split.length > 0) add(`Where the curl multipart floor's time goes on ${target} (medians): ${split.join('; ')}.`, '');
    }
    const pageModes = result.modes.filter((mode) => mode.kind === 'page');
    add(
      `### ${target}: page heap growth during the upload (JS objects + ArrayBuffers, MiB: median, largest) and main-thread tasks over 50 ms (all rounds: count, longest)`,
      '',
      `| client | ${sizes.map((size) => `${sizeLabel(size)} heap | long tasks`).join(' | ')} |`,
      `| --- | ${sizes.map(() => '---: | ---:').join(' | ')} |`,
    );
    for (const mode of pageModes) {
      const values = sizes.map((size) => {
        const m = cell(target, size, mode.id)?.median;
        if (!m) return '– | –';
        const heap = m.heapGrowth === undefined ? '–' : `+${mib(m.heapGrowth)} (+${mib(m.heapGrowthMax)})`;
        const tasks = m.longTaskCount === undefined ? '–' : m.longTaskCount === 0 ? 'none' : `${m.longTaskCount}, ${fmt(m.longTaskMaxMs)} ms`;
        return `${heap} | ${tasks}`;
      });
      add(`| ${label(mode.id)} | ${values.join(' | ')} |`);
    }
    add('');
    // Runs before 2026-11-28 10:00 had s3rver in the benchmark's process (their target description says so).
    const inBenchProcess = result.targets.s3rver?.includes("benchmark's process") ?? false;
    const storageWhat =
      target !== 's3rver'
        ? 'radosgw, the Ceph monitor and OSD'
        : inBenchProcess
          ? "the benchmark's process: s3rver, the preparation handler, the page server"
          : "s3rver's own process";
    add(
      `### ${target}: CPU seconds per upload (medians): the client (chromium's processes, or curl) and the storage (${storageWhat})`,
      '',
      'Both share 2 cores: CPU a client spends on each byte is CPU the storage server does not get.',
      '',
      `| client | ${sizes.map((size) => `${sizeLabel(size)} client | storage`).join(' | ')} | chromium by process, ${sizeLabel(sizes[sizes.length - 1]!)} |`,
      `| --- | ${sizes.map(() => '---: | ---:').join(' | ')} | --- |`,
    );
    for (const mode of result.modes) {
      const values = sizes.map((size) => {
        const m = cell(target, size, mode.id)?.median;
        return m?.clientCpuSeconds === undefined ? '– | –' : `${fmt(m.clientCpuSeconds, 1)} | ${fmt(m.storageCpuSeconds, 1)}`;
      });
      add(`| ${label(mode.id)} | ${values.join(' | ')} | ${byProcess(cell(target, sizes[sizes.length - 1]!, mode.id))} |`);
    }
    add('');
  }
  const profiled = result.cells.flatMap((entry) =>
    entry.samples.filter((sample) => sample.profile).map((sample) => ({ entry, profile: sample.profile! })),
  );
  if (profiled.length > 0) {
    add(
      '### CPU profiles of the page (`UPLOAD_PROFILE`): self time on the main thread',
      '',
      '| upload | main thread busy / wall | top functions (self ms) | profile |',
      '| --- | ---: | --- | --- |',
    );
    for (const { entry, profile } of profiled) {
      const top = profile.top
        .filter((frame) => frame.frame !== '(idle)')
        .slice(0, 6)
        .map((frame) => `${frame.frame.replace(/\|/g, '\\|')} ${frame.ms}`)
        .join('; ');
      add(`| ${entry.target} ${sizeLabel(entry.sizeMiB)} ${label(entry.mode)} | ${fmt(profile.busyMs)} / ${fmt(profile.wallMs)} ms | ${top} | \`${profile.file}\` |`);
    }
    add('');
  }
}

export function hugeSection(result: HugeResult, add: Add, headline: string[]): void {
  const { sample } = result;
  const outcome = result.ok
    ? `stored ${fmt(result.bytes)} bytes, SHA-256 equal to the source's, ${fmt(sample.mbPerSecond)} MB/s in ${fmt(sample.seconds, 1)} s`
    : `FAILED: ${sample.error ?? `stored SHA-256 ${result.storedSha256 ?? 'unknown'} differs from the source's`}`;
  headline.push(`- **A file over 5 GiB** (${fmt(result.bytes / MiB)} MiB, presigned, s3rver): ${outcome}.`);
  add('## 4. A file over 5 GiB (opt-in: `pnpm --filter @upbeam/bench bench:huge`)', '', result.settings + '.', '');
  add(
    '| | |',
    '| --- | --- |',
    `| date | ${result.machine.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} (load ${result.machine.load ?? '?'}), commit ${result.machine.commit} |`,
    `| outcome | ${outcome} |`,
    `| source SHA-256 | \`${result.sha256}\` |`,
    `| stored SHA-256 | \`${result.storedSha256 ?? 'not read'}\` |`,
  );
  if (sample.heapPeak !== undefined) {
    add(`| page heap growth | +${mib(sample.heapPeak - sample.heapBefore!)} MiB |`);
  }
  if (sample.longTasks) add(`| main-thread tasks over 50 ms | ${sample.longTasks.count} (longest ${sample.longTasks.maxMs} ms) |`);
  add('');
}

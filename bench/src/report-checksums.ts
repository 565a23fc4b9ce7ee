/** The section of RESULTS.md on what each checksum costs the client (issue 46, `checksums/run.ts`). */
import type { ChecksumCell, ChecksumSample, ChecksumsResult } from './checksums/run';
import { medianInterval, type MedianInterval } from './lib/paired';
import { fmt, median } from './lib/stats';

/** The issue's target: CRC32C and CRC64NVME within this many times the client CPU of no checksum. */
const CPU_TARGET = 1.1;
const CONFIDENCE = 0.9;
const GiB = 1024 * 1024 * 1024;

const times = (value: number) => `${value.toFixed(2)}×`;
const withInterval = (figure: MedianInterval, format: (value: number) => string) =>
  `${format(figure.median)} (${format(figure.low)}–${format(figure.high)}, ${Math.round(figure.coverage * 100)} %)`;

/** Each good sample's value, by round. */
function byRound(cell: ChecksumCell | undefined, value: (sample: ChecksumSample) => number | undefined): Map<number, number> {
  const rounds = new Map<number, number>();
  for (const sample of cell?.samples ?? []) {
    const measured = sample.error === undefined ? value(sample) : undefined;
    if (measured !== undefined && Number.isFinite(measured)) rounds.set(sample.round, measured);
  }
  return rounds;
}

/** `combine(mine, none's)` of every round where both ran. */
function paired(
  mine: ChecksumCell,
  none: ChecksumCell | undefined,
  value: (sample: ChecksumSample) => number | undefined,
  combine: (a: number, b: number) => number,
): MedianInterval | undefined {
  const base = byRound(none, value);
  const values = [...byRound(mine, value)].filter(([round]) => base.has(round)).map(([round, measured]) => combine(measured, base.get(round)!));
  return medianInterval(values, CONFIDENCE);
}

export function checksumsSection(result: ChecksumsResult, add: (...text: string[]) => void): void {
  const cpuPerGiB = (cell: ChecksumCell) => (sample: ChecksumSample) => (sample.clientCpuSeconds === undefined ? undefined : (sample.clientCpuSeconds * GiB) / cell.bytes);
  const storagePerGiB = (cell: ChecksumCell) => (sample: ChecksumSample) =>
    sample.storageCpuSeconds === undefined ? undefined : (sample.storageCpuSeconds * GiB) / cell.bytes;
  const find = (size: string, shape: string, checksum: string) =>
    result.cells.find((cell) => cell.size === size && cell.shape === shape && cell.checksum === checksum);
  const failures = (cell: ChecksumCell) => cell.samples.filter((sample) => sample.error).length;
  const verdicts: string[] = [];
  add(
    `## 2f. Checksums (issue 46): client CPU per GiB (${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\`. Storage: ${result.storage} (\`@upbeam/local-s3\`, which verifies the checksums: its CPU is storage's). ` +
      `${result.settings}. Rounds: ${Object.entries(result.rounds)
        .map(([size, rounds]) => `${rounds} at ${size}`)
        .join(', ')}; ${fmt(result.seconds / 60)} minutes. Every checksum is paired with no checksum of the same shape and size in the same round: ` +
      `the ratio is the median of the rounds' ratios, with a distribution-free interval of the median (at least ${CONFIDENCE * 100} % where the rounds allow, ` +
      'else the full range, its coverage given).',
    '',
  );
  for (const size of ['128MiB', '1GiB']) {
    const cells = result.cells.filter((cell) => cell.size === size);
    if (cells.length === 0) continue;
    add(
      `### ${cells[0]!.bytes === GiB ? '1 GiB' : '128 MiB'}`,
      '',
      '| shape | checksum | client CPU s/GiB (median, interval) | / no checksum (paired) | MB/s (median) | storage CPU s/GiB (median) |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
    );
    for (const cell of cells) {
      const none = find(cell.size, cell.shape, 'none');
      const cpu = medianInterval([...byRound(cell, cpuPerGiB(cell)).values()], CONFIDENCE);
      const ratio = cell.checksum === 'none' ? undefined : paired(cell, none, cpuPerGiB(cell), (a, b) => a / b);
      const rates = [...byRound(cell, (sample) => sample.mbPerSecond).values()];
      const storage = [...byRound(cell, storagePerGiB(cell)).values()];
      const failed = failures(cell);
      add(
        `| ${cell.shape === 'put' ? 'one PUT' : 'multipart'} | ${cell.checksum === 'none' ? 'none' : `\`${cell.checksum}\``} | ` +
          `${cpu ? withInterval(cpu, (value) => value.toFixed(2)) : 'n/a'} | ${ratio ? withInterval(ratio, times) : cell.checksum === 'none' ? '1' : 'n/a'} | ` +
          `${fmt(median(rates))}${failed ? ` (${failed} of ${cell.samples.length} failed)` : ''} | ${fmt(median(storage), 2)} |`,
      );
      if ((cell.checksum === 'crc32c' || cell.checksum === 'crc64nvme') && ratio) {
        const met = ratio.median <= CPU_TARGET;
        const straddles = ratio.low <= CPU_TARGET && ratio.high > CPU_TARGET;
        verdicts.push(
          `- \`${cell.checksum}\`, ${cell.shape === 'put' ? 'one PUT' : 'multipart'}, ${cell.bytes === GiB ? '1 GiB' : '128 MiB'}: ${times(ratio.median)} → ` +
            `**${met ? 'met' : 'missed'}**${straddles ? ` (the interval ${times(ratio.low)}–${times(ratio.high)} straddles ${times(CPU_TARGET)})` : ''}.`,
        );
      }
    }
    add('');
  }
  // Where the client's CPU goes, by chromium process, at the largest size: the second read of the file (the
  // hash worker's Blob reads go through the browser process) shows beside the hashing itself (the renderer).
  const largest = result.cells.filter((cell) => cell.bytes === Math.max(...result.cells.map((entry) => entry.bytes)));
  const kinds = ['renderer', 'browser', 'network'];
  if (largest.length > 0) {
    add(
      `### Where the client's CPU goes (${largest[0]!.bytes === GiB ? '1 GiB' : `${largest[0]!.bytes} bytes`}, medians, s/GiB by chromium process)`,
      '',
      `| shape | checksum | ${kinds.join(' | ')} | other |`,
      `| --- | --- | ${kinds.map(() => '---:').join(' | ')} | ---: |`,
      ...largest.map((cell) => {
        const good = cell.samples.filter((sample) => sample.error === undefined && sample.clientCpuByProcess);
        const of = (kind: string) => median(good.map((sample) => ((sample.clientCpuByProcess![kind] ?? 0) * GiB) / cell.bytes));
        const other = median(
          good.map(
            (sample) =>
              (Object.entries(sample.clientCpuByProcess!)
                .filter(([kind]) => !kinds.includes(kind))
                .reduce((sum, [, seconds]) => sum + seconds, 0) *
                GiB) /
              cell.bytes,
          ),
        );
        return `| ${cell.shape === 'put' ? 'one PUT' : 'multipart'} | ${cell.checksum === 'none' ? 'none' : `\`${cell.checksum}\``} | ${kinds.map((kind) => fmt(of(kind), 2)).join(' | ')} | ${fmt(other, 2)} |`;
      }),
      '',
    );
  }
  if (verdicts.length > 0) {
    add(`The issue's target, CRC32C and CRC64NVME within ${times(CPU_TARGET)} the client CPU of no checksum (judged by the paired median):`, '', ...verdicts, '');
  }
  // The single PUT hashes the whole file before it asks for its URL: the wait before the PUT's first byte.
  const leadIns: string[] = [];
  for (const size of ['10MB', '128MiB']) {
    const none = find(size, 'put', 'none');
    if (!none) continue;
    const noneLeadIn = medianInterval([...byRound(none, (sample) => sample.leadInMs).values()], CONFIDENCE);
    for (const cell of result.cells.filter((entry) => entry.size === size && entry.shape === 'put' && entry.checksum !== 'none')) {
      const added = paired(cell, none, (sample) => sample.leadInMs, (a, b) => a - b);
      const own = median([...byRound(cell, (sample) => sample.leadInMs).values()]);
      if (added) {
        leadIns.push(
          `| ${size === '10MB' ? '10 MB' : '128 MiB'} | \`${cell.checksum}\` | ${fmt(own)} | ${noneLeadIn ? fmt(noneLeadIn.median) : 'n/a'} | ${withInterval(added, (value) => fmt(value))} |`,
        );
      }
    }
  }
  if (leadIns.length > 0) {
    add(
      '### A single PUT hashes first: the added lead-in',
      '',
      "A single PUT's checksum is signed into its URL, so the file is hashed before the preparation and read a second time to send it. " +
        "Lead-in: ms from the page's call to the PUT's start (Resource Timing), a fresh page per upload (the hashing worker started with the upload).",
      '',
      '| file | checksum | lead-in, ms (median) | no checksum, ms | added, ms (paired: median, interval) |',
      '| --- | --- | ---: | ---: | ---: |',
      ...leadIns,
      '',
    );
  }
}

/** What each way of reading a floor's parts is, for the floors' table. */
const FLOOR_LABELS: Record<string, string> = {
  blob: 'the `Blob.slice()` sent (the plain floor: no checksum)',
  'blob-crc32c': 'read into memory and CRC32C-hashed, then the slice sent (two reads)',
  bytes: 'read into memory, those bytes sent (one read, no hash)',
  'bytes-crc32c': 'read, CRC32C-hashed, those bytes sent (one read)',
};

/**
 * The opt-in floors (`CHECKSUM_FLOORS=1`): the bare XHR multipart with its parts read four ways, each paired
 * with the plain floor: whether a client that hashes the very bytes it sends (one read) could meet the target.
 */
export function checksumFloorsSection(result: ChecksumsResult, add: (...text: string[]) => void): void {
  add(
    `### One read instead of two? The bare multipart floor, its parts read four ways (${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\`: the same page, storage and method as above; the browser's bare XHR multipart (${ENGINE_PARTS_NOTE}) instead of Upbeam, ` +
      `no checksum header sent (the floor's URLs sign none): only what reading and hashing the parts costs the client. Rounds: ${Object.entries(result.rounds)
        .map(([size, rounds]) => `${rounds} at ${size}`)
        .join(', ')}; each variant paired with the plain floor in the same round.`,
    '',
    '| file | parts | client CPU s/GiB (median, interval) | / plain floor (paired) | MB/s (median) |',
    '| --- | --- | ---: | ---: | ---: |',
  );
  for (const cell of result.cells) {
    const perGiB = (sample: ChecksumSample) => (sample.clientCpuSeconds === undefined ? undefined : (sample.clientCpuSeconds * GiB) / cell.bytes);
    const base = result.cells.find((entry) => entry.size === cell.size && entry.checksum === 'blob');
    const cpu = medianInterval([...byRound(cell, perGiB).values()], CONFIDENCE);
    const ratio = cell.checksum === 'blob' ? undefined : paired(cell, base, perGiB, (a, b) => a / b);
    add(
      `| ${cell.bytes === GiB ? '1 GiB' : '128 MiB'} | ${FLOOR_LABELS[cell.checksum] ?? cell.checksum} | ${cpu ? withInterval(cpu, (value) => value.toFixed(2)) : 'n/a'} | ` +
        `${ratio ? withInterval(ratio, times) : cell.checksum === 'blob' ? '1' : 'n/a'} | ${fmt(median([...byRound(cell, (sample) => sample.mbPerSecond).values()]))} |`,
    );
  }
  add('');
  const largest = Math.max(...result.cells.map((cell) => cell.bytes));
  const ratioOf = (read: string) => {
    const cell = result.cells.find((entry) => entry.bytes === largest && entry.checksum === read);
    const base = result.cells.find((entry) => entry.bytes === largest && entry.checksum === 'blob');
    const perGiB = (sample: ChecksumSample) => (sample.clientCpuSeconds === undefined ? undefined : (sample.clientCpuSeconds * GiB) / largest);
    return cell && base ? paired(cell, base, perGiB, (a, b) => a / b) : undefined;
  };
  const twoReads = ratioOf('blob-crc32c');
  const oneRead = ratioOf('bytes');
  const oneReadHashed = ratioOf('bytes-crc32c');
  if (twoReads && oneRead && oneReadHashed) {
    add(
      `At ${largest === GiB ? '1 GiB' : `${largest} bytes`}, what costs the client is bringing the bytes into the page, not the CRC: a part read into memory and sent as bytes ` +
        `costs ${times(oneRead.median)} the plain floor with no hash at all (the bytes copied in from the browser process's blob store, then out to the network ` +
        `service), CRC32C on top ${times(oneReadHashed.median)}, the two reads of a client that hashes and then sends the slice ${times(twoReads.median)}. ` +
        'No browser client that reads the file to hash it comes within 1.10× the CPU of sending the Blob unread; the target is out of reach in chromium ' +
        "on this machine, and Upbeam's own multipart ratios above sit at this floor's.",
      '',
    );
  }
}

const ENGINE_PARTS_NOTE = '5 MiB parts, 4 at once';

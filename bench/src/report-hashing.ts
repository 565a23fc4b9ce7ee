/** The section of RESULTS.md on hashing throughput in chromium (issue 46, `hashing/run.ts`). */
import type { HashingResult, HashingSample } from './hashing/run';
import { medianInterval, type MedianInterval } from './lib/paired';

const CONFIDENCE = 0.9;
const GiB = 1024 * 1024 * 1024;

const LABELS: Record<string, string> = {
  worker: 'hash-wasm, hash worker',
  main: 'hash-wasm, main thread (10 ms tasks)',
  subtle: "`crypto.subtle.digest('SHA-256')`, file read whole",
  parts: 'hash worker, as 5 MiB parts and their composite (SHA-256 of a part: WebCrypto)',
  read: 'no hash: the file read in 1 MiB BYOB reads (the floor)',
};

const withInterval = (figure: MedianInterval | undefined, digits = 0) =>
  figure ? `${figure.median.toFixed(digits)} (${figure.low.toFixed(digits)}–${figure.high.toFixed(digits)})` : '–';

/** A figure of every good sample, with the interval of its median. */
function figure(samples: HashingSample[], value: (sample: HashingSample) => number | undefined): MedianInterval | undefined {
  const values = samples.flatMap((sample) => {
    const measured = sample.error === undefined ? value(sample) : undefined;
    return measured !== undefined && Number.isFinite(measured) ? [measured] : [];
  });
  return medianInterval(values, CONFIDENCE);
}

export function hashingSection(result: HashingResult, add: (...text: string[]) => void): void {
  const mb = result.bytes / 1e6;
  const { machine } = result;
  add(
    `## 2g. Hashing throughput (issue 46) (${machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${machine.commit})`,
    '',
    `\`${result.command}\`. Debian chromium ${machine.versions.chromium ?? ''} headless over a bare DevTools pipe, hash-wasm ${machine.versions['hash-wasm'] ?? ''}; ` +
      `one page hashes a picked file of ${result.bytes / (1024 * 1024)} MiB in /dev/shm with the client's own code (\`checksum.ts\`: 1 MiB reads into one reused buffer), ` +
      'in its hash worker or on the main thread, beside WebCrypto\'s SHA-256 of the same bytes read whole into one buffer (`file.arrayBuffer()`, counted: WebCrypto takes no stream). ' +
      `MB/s = 10^6 bytes per second of wall time in the page; CPU = chromium's processes (page, worker, browser) from /proc, per GiB hashed; ` +
      "the renderer's share is the page's threads (its main thread and the hash worker), the rest mostly the browser process serving the file's bytes. " +
      `${result.rounds} rounds, the modes in a new order each round; medians with a distribution-free interval (at least ${CONFIDENCE * 100} % where the rounds allow). ` +
      `Load average (1 min) at the start ${machine.load}; ${machine.cores} cores (${machine.cpu}).`,
    '',
    '| algorithm | where | MB/s (median, interval) | CPU s per GiB (median, interval) | of which the renderer (page, worker) | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  );
  for (const { mode, samples } of result.cells) {
    const mbps = figure(samples, (sample) => (sample.ms ? mb / (sample.ms / 1000) : undefined));
    const cpu = figure(samples, (sample) => (sample.cpuSeconds === undefined ? undefined : (sample.cpuSeconds * GiB) / result.bytes));
    const renderer = figure(samples, (sample) => (sample.rendererCpuSeconds === undefined ? undefined : (sample.rendererCpuSeconds * GiB) / result.bytes));
    const errors = samples.filter((sample) => sample.error).length;
    add(`| ${mode.where === 'read' ? '–' : mode.algorithm} | ${LABELS[mode.where]} | ${withInterval(mbps)} | ${withInterval(cpu, 2)} | ${withInterval(renderer, 2)} | ${errors} |`);
  }
  const subtle = result.cells.find((cell) => cell.mode.where === 'subtle');
  const digestOnly = subtle && figure(subtle.samples, (sample) => (sample.ms && sample.readMs !== undefined ? mb / ((sample.ms - sample.readMs) / 1000) : undefined));
  if (digestOnly) add('', `WebCrypto's digest alone, once the file is in memory: ${withInterval(digestOnly)} MB/s.`);
  add('');
}

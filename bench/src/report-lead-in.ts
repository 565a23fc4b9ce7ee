/** The section of RESULTS.md on the lead-in (issue 47 item 2, `lead-in/run.ts`): the file picked to the first byte on storage's socket. */
import type { LeadInResultFile, LeadInSample } from './lead-in/run';
import { medianInterval, type MedianInterval } from './lib/paired';
import { fmt } from './lib/stats';

/** The issue's target: Upbeam's lead-in at most this many ms over its floor's, in the same rounds. */
const TARGET_MS = 5;
const CONFIDENCE = 0.9;

const ms = (value: number) => value.toFixed(1);
const withInterval = (figure: MedianInterval | undefined) => (figure ? `${ms(figure.median)} (${ms(figure.low)} to ${ms(figure.high)})` : 'n/a');
const signed = (figure: MedianInterval | undefined) =>
  figure ? `${figure.median >= 0 ? '+' : ''}${ms(figure.median)} (${ms(figure.low)} to ${ms(figure.high)})` : 'n/a';

/** Whether a paired difference meets the target: its whole interval at or under it, or straddling it. */
function verdict(figure: MedianInterval | undefined): string {
  if (!figure) return 'n/a';
  if (figure.high <= TARGET_MS) return 'met';
  if (figure.low > TARGET_MS) return `missed by ${ms(figure.median - TARGET_MS)} ms`;
  return 'interval straddles +5';
}

/** Each good sample's value of `mode` at `delay`, by round. */
function byRound(samples: LeadInSample[], mode: string, delay: string, value: (sample: LeadInSample) => number | undefined): Map<number, number> {
  const rounds = new Map<number, number>();
  for (const sample of samples) {
    if (sample.mode !== mode || sample.delay !== delay || sample.error !== undefined) continue;
    const measured = value(sample);
    if (measured !== undefined) rounds.set(sample.round, measured);
  }
  return rounds;
}

/** The median (and interval) of `mode` minus `floor`, round by round. */
function pairedDifference(samples: LeadInSample[], mode: string, floor: string, delay: string, value: (sample: LeadInSample) => number | undefined) {
  const base = byRound(samples, floor, delay, value);
  const differences = [...byRound(samples, mode, delay, value)].filter(([round]) => base.has(round)).map(([round, measured]) => measured - base.get(round)!);
  return medianInterval(differences, CONFIDENCE);
}

/** The median start and end (ms from the pick) of each of `mode`'s requests before its first PUT, by path kind. */
function requestTimes(samples: LeadInSample[], mode: string, delay: string): string {
  const kinds = new Map<string, { start: number[]; end: number[] }>();
  for (const sample of samples) {
    if (sample.mode !== mode || sample.delay !== delay || sample.error !== undefined) continue;
    const chunks = sample.requests?.filter((request) => request.path.endsWith('.js')) ?? [];
    const groups: [string, { start: number; end: number }[]][] = [
      ['endpoint', sample.requests?.filter((request) => request.path.startsWith('/api/')) ?? []],
      [`lazy chunks (${chunks.length})`, chunks],
    ];
    for (const [kind, requests] of groups) {
      if (requests.length === 0) continue;
      const entry = kinds.get(kind) ?? { start: [], end: [] };
      entry.start.push(Math.min(...requests.map((request) => request.start)));
      entry.end.push(Math.max(...requests.map((request) => request.end)));
      kinds.set(kind, entry);
    }
  }
  return [...kinds]
    .map(([kind, { start, end }]) => `${kind} ${ms(medianInterval(start)!.median)} to ${ms(medianInterval(end)!.median)}`)
    .join('; ');
}

export function leadInSection(result: LeadInResultFile, add: (...text: string[]) => void): void {
  const { samples } = result;
  const failed = samples.filter((sample) => sample.error).length;
  const hasBefore = samples.some((sample) => sample.mode.endsWith('-before'));
  add(
    `## 3k. Lead-in: the file picked to the first byte on storage's socket (issue 47) (${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\`. ${result.settings}. ${result.rounds} rounds; ${fmt(result.seconds / 60, 1)} minutes; ${failed} of ${samples.length} uploads failed.` +
      (result.before ? ` Before: the browser packages of ${result.before.label ?? result.before.commit} (\`${result.before.root}\`), in the same rounds.` : ''),
    '',
    'ms from the input\'s change event to the first byte of the page\'s first request on storage\'s socket (the CORS preflight of the upload, ' +
      'for every client here), and to the first byte of the upload\'s own PUT (the single PUT, or UploadPart 1); ' +
      `medians of the rounds with a distribution-free ${CONFIDENCE * 100} % interval; Upbeam minus its floor is paired round by round ` +
      `(the target: at most +${TARGET_MS} ms).`,
    '',
    `| delay to the app server | upload | floor, ms | Upbeam, ms | Upbeam − floor, ms | target |${hasBefore ? ' before − floor, ms |' : ''} Upbeam − floor to the PUT, ms |`,
    `| --- | --- | ---: | ---: | ---: | --- |${hasBefore ? ' ---: |' : ''} ---: |`,
  );
  const firstByte = (sample: LeadInSample) => sample.firstByteMs;
  const firstPut = (sample: LeadInSample) => sample.firstPutMs;
  const delayLabel = (delay: string) => (delay === '0' ? '0 ms' : delay.endsWith('+files') ? `${Number.parseInt(delay, 10)} ms, the page's files too` : `${delay} ms, the endpoints`);
  for (const delay of result.delays) {
    for (const shape of ['put', 'multipart'] as const) {
      const floor = `floor-${shape}`;
      const mine = `upbeam-${shape}`;
      const all = (mode: string) => medianInterval([...byRound(samples, mode, delay, firstByte).values()], CONFIDENCE);
      const difference = pairedDifference(samples, mine, floor, delay, firstByte);
      add(
        `| ${delayLabel(delay)} | ${shape === 'put' ? 'single PUT' : 'multipart'} | ${withInterval(all(floor))} | ${withInterval(all(mine))} | ${signed(difference)} | ${verdict(difference)} |` +
          `${hasBefore ? ` ${signed(pairedDifference(samples, `${mine}-before`, floor, delay, firstByte))} |` : ''} ${signed(pairedDifference(samples, mine, floor, delay, firstPut))} |`,
      );
    }
  }
  add(
    '',
    'Where Upbeam\'s multipart lead-in goes (Resource Timing in the page, ms from the pick, medians): the preparation endpoint\'s requests (start of the first to end of the last before the first part) and the lazy chunks\' (start of the first to end of the last).',
    '',
    '| delay to the app server | Upbeam | floor |',
    '| --- | --- | --- |',
  );
  for (const delay of result.delays) {
    const before = hasBefore ? `; before: ${requestTimes(samples, 'upbeam-multipart-before', delay)}` : '';
    add(`| ${delayLabel(delay)} | ${requestTimes(samples, 'upbeam-multipart', delay)}${before} | ${requestTimes(samples, 'floor-multipart', delay)} |`);
  }
  add(
    '',
    'Where the remaining time goes (the run of 2026-11-29 18:34 UTC): before, the multipart `create` waited for the lazy multipart chunk ' +
      '(it started ~21 ms after the pick at 0 ms, ~57 ms with the page\'s files 40 ms away); now it starts ~2 ms after the pick, beside the chunk. ' +
      'With 40 ms to the endpoints both uploads are within +2 ms of their floors. At 0 ms the multipart cell misses by ~4 ms: the chunk\'s five files ' +
      'are parsed, compiled and run on the main thread (`(program)` ~35 ms of the ~57 ms busy below) while the `create` is answered, so the answer ' +
      'is handled and the parts start later, and the page server answers the chunk\'s files beside the `create` (its answer ends ~8 ms after the ' +
      'floor\'s). The single PUT\'s +5 ms at 0 ms is the same before and after (the tracker\'s add path and its first calls, compiled lazily). With the ' +
      'page\'s files 40 ms away too, the `create` and five chunk files share HTTP/1.1\'s six connections with the page\'s own: +5 ms, the interval ' +
      'straddling the target (before: +53 ms).',
    '',
  );
  if (!result.profiles?.length) return;
  add(
    'The page\'s main thread from the pick to the first PUT on storage\'s socket (DevTools CPU profile, 1 ms samples; uncounted uploads after the rounds, ' +
      '`LEAD_IN_PROFILE`): ms busy of the profile\'s wall ms (medians), and the functions with the most self time in the profile of median busy time ' +
      '(`(program)`: V8 and Blink outside JavaScript, e.g. compiling and linking the loaded modules).',
    '',
    '| delay to the app server | client | busy / wall, ms | most self time, ms |',
    '| --- | --- | ---: | --- |',
  );
  for (const delay of result.delays) {
    for (const mode of [...new Set(result.profiles.map((entry) => entry.mode))]) {
      const profiles = result.profiles.filter((entry) => entry.mode === mode && entry.delay === delay).sort((a, b) => a.profile.busyMs - b.profile.busyMs);
      if (profiles.length === 0) continue;
      const middle = profiles[(profiles.length - 1) >> 1]!.profile;
      const wall = medianInterval(profiles.map((entry) => entry.profile.wallMs))!.median;
      const top = middle.top
        .filter((entry) => entry.frame !== '(idle)')
        .slice(0, 5)
        .map((entry) => `${entry.frame.replace(/\|/g, '/')} ${entry.ms}`)
        .join(', ');
      add(`| ${delayLabel(delay)} | ${mode} | ${fmt(middle.busyMs)} / ${fmt(wall)} | ${top} |`);
    }
  }
  add('');
}

/**
 * The targets of issue 22 ("One send loop, and progress that never claims a byte storage did not keep"),
 * items 4 and 5, checked against the upload results: Upbeam against the bare XHR floors in the same browser,
 * and the part timeline (where a multipart upload loses time against the bare XHR multipart floor).
 */
import { fmt } from './lib/stats';
import { verdict } from './report-targets';
import { uploadLookups, type Add, type Ratio } from './report-upload';
import { describeEndpoints, type UploadSample, type UploadResult } from './upload/run';
import type { PageRequest } from './upload/part-timeline';

/** The number: Upbeam's MB/s over the bare XHR floor's, in every cell. */
const FLOOR_MIN = 0.95;

/**
 * @param trace - the traced uploads (`bench:upload-trace`), whose tasks' CPU times answer "no task over 50 ms"
 *   on a loaded machine; without it, any upload of `upload` traced with `UPLOAD_TRACE`.
 */
export function sendLoopTargetsSection(upload: UploadResult, trace: UploadResult | undefined, add: Add, superseded = false): void {
  const { cell, targets, sizesOf, ratios, pairedRatios } = uploadLookups(upload);
  const row = (name: string, found: Ratio[]) => {
    const met = found.length === 0 ? undefined : found.every((entry) => entry.value >= FLOOR_MIN);
    add(`| ${name} | ${found.map((entry) => entry.text).join('; ') || '–'} | ${verdict(met)} |`);
  };
  add(
    '## Targets of issue 22, "One send loop" (items 4 and 5)',
    '',
    ...(superseded
      ? [
          '**Superseded** as the reading of the throughput targets by issue 47 (its targets table below, after this one\'s tables, and section 3g): a target is now read from',
          'client CPU seconds per GiB, paired, with an interval. The wall-clock ratios below stay as information (on these 2 cores a',
          "1-second upload's ratio moves by up to 0.08 between runs of the same code).",
          '',
        ]
      : []),
    '| target | measured | |',
    '| --- | --- | --- |',
  );
  // A single PUT of 128 MiB takes under a second: storage's own pace (s3rver runs in the benchmark's
  // process) varies more between rounds than the clients differ, so the rounds are compared in pairs.
  row(
    `single PUT, either strategy: >= ${FLOOR_MIN}× the bare XHR PUT in the same browser (median of the rounds' paired ratios, their range, and the median paired ratio of client CPU seconds)`,
    pairedRatios(['upbeam-presigned-put', 'upbeam-token-put'], 'floor-xhr'),
  );
  // A bare PUT signed as the temporary-token strategy signs it (SigV4 in headers, its object headers): what a
  // header-signed PUT costs storage and the browser, apart from the client; then the token PUT against it.
  const headerSigned = pairedRatios(['floor-xhr-token'], 'floor-xhr');
  add(
    `| (beside it: the bare XHR PUT signed as the temporary-token strategy signs it, against the presigned bare XHR PUT; same rounds) | ${headerSigned.map((entry) => entry.text).join('; ') || '–'} | measured |`,
  );
  row(
    `beside it, the temporary-token PUT against that bare PUT signed the same way: what the client adds (median of the rounds' paired ratios)`,
    pairedRatios(['upbeam-token-put'], 'floor-xhr-token'),
  );
  row(
    `multipart, either strategy: >= ${FLOOR_MIN}× the bare XHR multipart (same \`Blob.slice()\` parts, part size and concurrency; median of the rounds' paired ratios, as above)`,
    pairedRatios(['upbeam-presigned-multipart', 'upbeam-token-multipart'], 'floor-xhr-multipart'),
  );
  // As for the PUT: a bare multipart signed as the temporary-token strategy signs it (each part's SigV4 in
  // headers, which radosgw checks against the session token), then the token multipart against it.
  const headerSignedParts = pairedRatios(['floor-xhr-token-multipart'], 'floor-xhr-multipart');
  add(
    `| (beside it: the bare XHR multipart signed as the temporary-token strategy signs it, against the presigned bare XHR multipart; same rounds) | ${headerSignedParts.map((entry) => entry.text).join('; ') || '–'} | measured |`,
  );
  row(
    'beside it, the temporary-token multipart against that bare multipart signed the same way: what the client adds (median of the rounds\' paired ratios)',
    pairedRatios(['upbeam-token-multipart'], 'floor-xhr-token-multipart'),
  );
  // Beside the target, two pairs that do the same work on both sides: the hook's page draws its progress and
  // the bare floor draws nothing; on 2 cores that the storage shares, drawing costs the storage CPU.
  row(
    'beside it, the engine alone: presigned multipart through `uploadFile`, its progress kept and never drawn, against the same bare floor (which draws nothing)',
    ratios(['upbeam-presigned-multipart-unrendered'], () => 'floor-xhr-multipart'),
  );
  row(
    "beside it, a page that draws its progress: the hook's page against the bare multipart floor drawing its progress the same way (a `<progress>` and the bytes, at most 20 times a second)",
    ratios(['upbeam-presigned-multipart', 'upbeam-token-multipart'], () => 'floor-xhr-multipart-drawn'),
  );
  // The traced uploads (bench:upload-trace, or UPLOAD_TRACE): each task's thread time, which a loaded machine
  // does not stretch.
  const traced = (trace ?? upload).cells.flatMap((entry) =>
    entry.samples.filter((sample) => sample.taskTimes).map((sample) => ({ entry, times: sample.taskTimes!, load: sample.load })),
  );
  const tracedText = traced.map(
    ({ entry, times, load }) =>
      `${entry.mode.replace('upbeam-', '')} ${entry.target} ${entry.sizeMiB} MiB: longest ${times.maxCpuMs} ms CPU (${times.overFiftyCpu} over 50), ${times.maxWallMs} ms wall (${times.overFiftyWall} over 50), load ${load ?? '?'}`,
  );
  const ours = traced.filter(({ entry }) => entry.mode.startsWith('upbeam-'));
  add(
    '| no main-thread task over 50 ms during any mode, md5 modes included: wall time (Long Tasks API) | the long-task row of the table above (every Upbeam mode) | (above) |',
    `| the same by each task's CPU (thread) time, from a chromium trace of each Upbeam mode's upload (\`bench:upload-trace\`; a starved CPU does not lengthen it) | ${tracedText.join('; ') || '–'} | ${verdict(ours.length === 0 ? undefined : ours.every(({ times }) => times.overFiftyCpu === 0))} (by CPU time) |`,
    '',
    "Where multipart loses time against the floor: each page multipart upload's UploadPart requests as the browser's",
    'Resource Timing records them (start, end of the answer). "Gap": from the k-th part to end to the start of the',
    '(k + parts at once)-th part to start, the part that takes its slot (ms, p50 / p90, medians of the rounds); "busy":',
    'the mean parts in flight over the parts at once, from the first start to the last end (1 = no slot ever idle).',
    '',
    '| cell | client | MB/s | gap p50 / p90 ms | busy |',
    '| --- | --- | ---: | ---: | ---: |',
  );
  const pageMultipart = upload.modes.filter((mode) => mode.kind === 'page' && mode.parts);
  for (const target of targets) {
    for (const size of sizesOf(target)) {
      for (const mode of pageMultipart) {
        const m = cell(target, size, mode.id)?.median;
        if (m?.partGapP50Ms === undefined) continue;
        add(`| ${target} ${size} MiB | ${mode.id} | ${fmt(m.mbPerSecond)} | ${fmt(m.partGapP50Ms, 1)} / ${fmt(m.partGapP90Ms, 1)} | ${fmt(m.slotsBusy, 2)} |`);
      }
    }
  }
  add(
    '',
    'Where the time goes: the lead-in (from the page\'s call to the first UploadPart request\'s start), the parts (first',
    "start to last end; and one part's mean time) and the tail (from the last UploadPart answer's end to the resolved",
    'upload), ms, medians of the rounds. A single PUT is a timeline of one part: the lead-in to its start, the PUT, the',
    "tail after its answer; lead-in and tail are the client's own time, the PUT is the browser's and storage's. Then, of the round of median",
    "time, the page's other requests in each (path, start after the call and duration, ms, Resource Timing) and what the",
    "page server's endpoints did during the whole upload (each request's action and time in the handler, with its storage",
    'calls and their time to the answer, ms).',
    '',
    '| cell | client | lead-in | parts (mean part), or the PUT | tail | lead-in requests | tail requests | endpoints |',
    '| --- | --- | ---: | ---: | ---: | --- | --- | --- |',
  );
  const pageUploads = upload.modes.filter((mode) => mode.kind === 'page');
  for (const target of targets) {
    for (const size of sizesOf(target)) {
      for (const mode of pageUploads) {
        const entry = cell(target, size, mode.id);
        const m = entry?.median;
        if (m?.leadInMs === undefined) continue;
        const sample = medianSample(entry!.samples);
        const requests = (list: PageRequest[] | undefined) => list?.map(({ path, startMs, ms }) => `${path} @${startMs} ${ms}`).join(', ') || '–';
        add(
          `| ${target} ${size} MiB | ${mode.id} | ${fmt(m.leadInMs, 1)} | ${fmt(m.partsMs)} (${fmt(m.partMeanMs, 1)}) | ${fmt(m.tailMs, 1)} | ${requests(sample?.parts?.leadInRequests)} | ${requests(sample?.parts?.tailRequests)} | ${sample?.endpoints ? describeEndpoints(sample.endpoints) : '–'} |`,
        );
      }
    }
  }
  add('');
}

/** The good sample of median time (the slower middle one of an even count). */
function medianSample(samples: UploadSample[]): UploadSample | undefined {
  const good = samples.filter((sample) => sample.error === undefined && sample.seconds !== undefined).sort((a, b) => a.seconds! - b.seconds!);
  return good[Math.floor(good.length / 2)];
}

/**
 * The timeline of a multipart upload's parts in the page, from the browser's own Resource Timing entries of
 * the UploadPart requests (`?partNumber=` URLs sent by XMLHttpRequest): the same record for Upbeam and the
 * bare XHR floor, with no probe in either client. It answers where a multipart upload loses time against
 * the floor: the gap between one part's end and the start of the part that takes its place, the lead-in
 * (the page's call to the first part's start) and the tail (the last part's answer to the resolved upload),
 * with the page's other requests in each (preparation, signing, completion, a lazily loaded chunk). A single
 * PUT of the whole file is a timeline of one part: its lead-in and tail are the client's own time around it.
 */

/** How the parts of one upload followed each other. */
export interface PartTimeline {
  parts: number;
  /**
   * Milliseconds from a part's end to the start of the part that took its slot: the k-th part to end frees
   * the slot that the (k + queueSize)-th part to start uses. Percentiles over the upload's parts.
   */
  gapP50Ms: number;
  gapP90Ms: number;
  gapMaxMs: number;
  /**
   * Mean parts in flight between the first part's start and the last part's end, over `queueSize` (or over the
   * parts, when fewer) (1 = always full).
   */
  slotsBusy: number;
  /** Milliseconds from the first part's start to the last part's end. */
  partsMs: number;
  /** Mean milliseconds of one UploadPart request, its start to its answer's end. */
  partMeanMs: number;
  /** Milliseconds from the page's call to the first UploadPart request's start. */
  leadInMs: number;
  /** Milliseconds from the last UploadPart answer's end to the resolved upload. */
  tailMs: number;
  /** The page's other requests that started before the first part (lead-in), in start order. */
  leadInRequests: PageRequest[];
  /** The page's other requests that started after the last part's end (tail), in start order. */
  tailRequests: PageRequest[];
}

/** One request of the page besides the parts: its path, when it started (ms from the page's call) and its duration. */
export interface PageRequest {
  path: string;
  startMs: number;
  ms: number;
}

/** One request: `performance.now()` times of its start and of its answer's end. */
interface Span {
  start: number;
  end: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The timeline of `spans` sent `queueSize` at once by an upload called at `started` and resolved at `ended`
 * (`performance.now()`), with the page's `others` requests; `undefined` without parts.
 */
export function partTimeline(
  spans: Span[],
  queueSize: number,
  started: number,
  ended: number,
  others: (Span & { path: string })[] = [],
): PartTimeline | undefined {
  if (spans.length === 0) return undefined;
  const starts = spans.map((span) => span.start).sort((a, b) => a - b);
  const ends = spans.map((span) => span.end).sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let index = queueSize; index < starts.length; index++) gaps.push(starts[index]! - ends[index - queueSize]!);
  gaps.sort((a, b) => a - b);
  const first = starts[0]!;
  const last = ends[ends.length - 1]!;
  const inFlight = spans.reduce((sum, span) => sum + (span.end - span.start), 0);
  const request = ({ path, start, end }: Span & { path: string }): PageRequest => ({ path, startMs: round1(start - started), ms: round1(end - start) });
  const byStart = [...others].sort((a, b) => a.start - b.start);
  return {
    parts: spans.length,
    gapP50Ms: round1(percentile(gaps, 0.5)),
    gapP90Ms: round1(percentile(gaps, 0.9)),
    gapMaxMs: round1(gaps[gaps.length - 1] ?? 0),
    // An upload of fewer requests than parts at once (a single PUT) can fill only as many slots as it has requests.
    slotsBusy: last > first ? Math.round((inFlight / (last - first) / Math.min(queueSize, spans.length)) * 1000) / 1000 : 1,
    partsMs: round1(last - first),
    partMeanMs: round1(inFlight / spans.length),
    leadInMs: round1(first - started),
    tailMs: round1(ended - last),
    leadInRequests: byStart.filter((span) => span.start < first).map(request),
    tailRequests: byStart.filter((span) => span.start >= last).map(request),
  };
}

const isPart = (entry: PerformanceResourceTiming) => entry.initiatorType === 'xmlhttprequest' && /[?&]partNumber=/.test(entry.name);

function resourcesSince(since: number): PerformanceResourceTiming[] {
  return (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.startTime >= since);
}

/** A single PUT of the whole file: a request by XMLHttpRequest to storage (another origin than the page's), no `uploadId`. */
const isSinglePut = (entry: PerformanceResourceTiming) =>
  entry.initiatorType === 'xmlhttprequest' && new URL(entry.name).origin !== location.origin && !/[?&]uploadId=/.test(entry.name);

/**
 * The page's requests since `since`, split once: `parts`, the UploadPart requests (`partNumber=` in the URL)
 * sent by XMLHttpRequest, or without any the single PUT of the whole file (a timeline of one part, whose
 * lead-in and tail are the client's own time around the PUT); `others`, every other request (endpoint calls,
 * scripts), named by its path.
 */
export function requestsSince(since: number): { parts: Span[]; others: (Span & { path: string })[] } {
  const resources = resourcesSince(since);
  const isUpload = resources.some(isPart) ? isPart : isSinglePut;
  const span = (entry: PerformanceResourceTiming) => ({ start: entry.startTime, end: entry.responseEnd });
  return {
    parts: resources.filter(isUpload).map(span),
    others: resources.filter((entry) => !isUpload(entry)).map((entry) => ({ path: new URL(entry.name).pathname, ...span(entry) })),
  };
}

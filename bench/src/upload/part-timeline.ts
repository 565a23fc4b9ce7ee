/**
 * The timeline of a multipart upload's parts in the page, from the browser's own Resource Timing entries of
 * the UploadPart requests (`?partNumber=` URLs sent by XMLHttpRequest): the same record for Upbeam and the
 * bare XHR floor, with no probe in either client. It answers where a multipart upload loses time against
 * the floor: the gap between one part's end and the start of the part that takes its place.
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
  /** Mean parts in flight between the first part's start and the last part's end, over `queueSize` (1 = always full). */
  slotsBusy: number;
}

/** One request: `performance.now()` times of its start and of its answer's end. */
interface Span {
  start: number;
  end: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The timeline of `spans` sent `queueSize` at once; `undefined` without parts. */
export function partTimeline(spans: Span[], queueSize: number): PartTimeline | undefined {
  if (spans.length === 0) return undefined;
  const starts = spans.map((span) => span.start).sort((a, b) => a - b);
  const ends = spans.map((span) => span.end).sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let index = queueSize; index < starts.length; index++) gaps.push(starts[index]! - ends[index - queueSize]!);
  gaps.sort((a, b) => a - b);
  const first = starts[0]!;
  const last = ends[ends.length - 1]!;
  const inFlight = spans.reduce((sum, span) => sum + (span.end - span.start), 0);
  return {
    parts: spans.length,
    gapP50Ms: round1(percentile(gaps, 0.5)),
    gapP90Ms: round1(percentile(gaps, 0.9)),
    gapMaxMs: round1(gaps[gaps.length - 1] ?? 0),
    slotsBusy: last > first ? Math.round((inFlight / (last - first) / queueSize) * 1000) / 1000 : 1,
  };
}

/** The UploadPart requests (`partNumber=` in the URL) the page sent by XMLHttpRequest since `since`. */
export function partSpansSince(since: number): Span[] {
  return performance
    .getEntriesByType('resource')
    .filter((entry) => entry.startTime >= since && (entry as PerformanceResourceTiming).initiatorType === 'xmlhttprequest' && /[?&]partNumber=/.test(entry.name))
    .map((entry) => ({ start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd }));
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledProgress, PROGRESS_INTERVAL_MS, type UploadProgress } from './progress';

describe('throttledProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports bytes and percent, falling back when bytes leave, never past the size', () => {
    const seen: UploadProgress[] = [];
    const report = throttledProgress(200, (p) => seen.push(p));
    for (const loaded of [0, 50, 40, 50, 150, 260, 200]) {
      report(loaded);
      vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    }
    expect(seen).toEqual([
      { uploaded: 0, size: 200, progress: 0 },
      { uploaded: 50, size: 200, progress: 25 },
      { uploaded: 40, size: 200, progress: 20 },
      { uploaded: 50, size: 200, progress: 25 },
      { uploaded: 150, size: 200, progress: 75 },
      { uploaded: 200, size: 200, progress: 100 },
    ]);
  });

  it('reports at most once per 50 ms (the latest value), and the whole size at once', () => {
    const seen: number[] = [];
    const report = throttledProgress(100_000, (p) => seen.push(p.uploaded));
    // WebKit's pace: an event per 8 KiB, many per millisecond.
    for (let sent = 8192; sent < 100_000; sent += 8192) report(sent);
    expect(seen).toEqual([8192]);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(seen).toEqual([8192, 98304]);
    report(99_000);
    report(100_000);
    expect(seen).toEqual([8192, 98304, 100_000]);
    vi.advanceTimersByTime(10 * PROGRESS_INTERVAL_MS);
    expect(seen).toEqual([8192, 98304, 100_000]);
  });

  it('reports a fall at once, dropping the growth it held', () => {
    const seen: number[] = [];
    const report = throttledProgress(1000, (p) => seen.push(p.uploaded));
    report(300);
    report(600); // held: within 50 ms of 300
    report(0); // the request failed: its bytes leave
    vi.advanceTimersByTime(10 * PROGRESS_INTERVAL_MS);
    expect(seen).toEqual([300, 0]);
  });

  it('reports an empty file as 100 % once stored', () => {
    const seen: UploadProgress[] = [];
    throttledProgress(0, (p) => seen.push(p))(0);
    expect(seen).toEqual([{ uploaded: 0, size: 0, progress: 100 }]);
  });
});

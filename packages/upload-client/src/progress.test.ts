import { describe, expect, it } from 'vitest';
import { monotonicProgress, type UploadProgress } from './progress';

describe('monotonicProgress', () => {
  it('reports bytes and percent, never backwards, never past the size', () => {
    const seen: UploadProgress[] = [];
    const report = monotonicProgress(200, (p) => seen.push(p));
    for (const loaded of [0, 50, 40, 50, 150, 260, 200]) report(loaded);
    expect(seen).toEqual([
      { uploaded: 0, size: 200, progress: 0 },
      { uploaded: 50, size: 200, progress: 25 },
      { uploaded: 150, size: 200, progress: 75 },
      { uploaded: 200, size: 200, progress: 100 },
    ]);
  });

  it('reports an empty file as 100 % once stored', () => {
    const seen: UploadProgress[] = [];
    monotonicProgress(0, (p) => seen.push(p))(0);
    expect(seen).toEqual([{ uploaded: 0, size: 0, progress: 100 }]);
  });
});

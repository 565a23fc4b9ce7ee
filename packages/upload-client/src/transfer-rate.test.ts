import { describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS, TransferRate } from './transfer-rate';

describe('TransferRate', () => {
  it('is the bytes sent over the time since the first reading, in bytes per second', () => {
    let now = 1000;
    const rate = new TransferRate(() => now);
    expect(rate.bytesPerSecond()).toBe(0);
    rate.add(0);
    now += 500;
    rate.add(1000);
    now += 500;
    rate.add(1000);
    expect(rate.bytesPerSecond()).toBe(2000);
  });

  it('forgets readings older than the window, and is 0 after a silent window', () => {
    let now = 0;
    const rate = new TransferRate(() => now);
    rate.add(0);
    now = 1000;
    rate.add(1_000_000);
    now = 1000 + RATE_WINDOW_MS - 1000;
    rate.add(4000);
    now = 1000 + RATE_WINDOW_MS + 500;
    rate.add(1000);
    // The megabyte of the first second is behind the window: from the reading at 1 s (the last one before
    // the window) to 6.5 s, 5000 bytes in 5.5 s.
    expect(rate.bytesPerSecond()).toBeCloseTo(5000 / 5.5);
    now += RATE_WINDOW_MS * 2;
    expect(rate.bytesPerSecond()).toBe(0);
  });
});

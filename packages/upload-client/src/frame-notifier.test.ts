import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameNotifier } from './frame-notifier';

// In Node there is no animation frame: the listeners are called 16 ms after a change (FRAME_MS). The timers
// are vitest's fake ones; `performance.now()` reads `now`, which a listener moves on to stand for the time
// up to the next task (its cost, or a hidden tab's late `setTimeout(0)`).
let now = 0;

beforeEach(() => {
  now = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A notifier whose listener "takes" `cost` ms (up to the next task) each call; returns its call count. */
function notifierWithCost(cost: number): { notifier: FrameNotifier; calls: () => number } {
  const notifier = new FrameNotifier();
  let calls = 0;
  notifier.subscribe(() => {
    calls += 1;
    now += cost;
  });
  return { notifier, calls: () => calls };
}

/** Ms from a change to the listeners' call, after a first call that cost what the listener takes. */
function delayOfSecondCall(cost: number): number {
  const { notifier, calls } = notifierWithCost(cost);
  notifier.notify();
  vi.advanceTimersByTime(16);
  expect(calls()).toBe(1);
  // The measuring setTimeout(0) (1 ms with fake timers, as in Node).
  vi.advanceTimersByTime(1);
  notifier.notify();
  let waited = 0;
  while (calls() === 1 && waited < 60_000) {
    vi.advanceTimersByTime(1);
    waited += 1;
  }
  return waited;
}

describe('FrameNotifier', () => {
  it('calls the listeners once for the changes of one frame', () => {
    const { notifier, calls } = notifierWithCost(0);
    notifier.notify();
    notifier.notify();
    vi.advanceTimersByTime(15);
    expect(calls()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls()).toBe(1);
  });

  it('holds back the next call by 19 times what the last one cost (the listeners take a twentieth of the thread)', () => {
    // 40 ms of work: 760 ms of pause, then the frame (16 ms).
    expect(delayOfSecondCall(40)).toBe(760 + 16);
  });

  it('caps the pause at 1 s, however slow the listeners', () => {
    // Measured 300 ms: uncapped, 5.7 s of pause; capped, 1 s, then the frame.
    expect(delayOfSecondCall(300)).toBe(1_000 + 16);
  });

  it('takes no measure in a hidden tab (its timers run seconds late: the wait is not the listeners\' work)', () => {
    vi.stubGlobal('document', { hidden: true });
    try {
      // Measured 2 s (a throttled timer): no pause, the next call at the next frame.
      expect(delayOfSecondCall(2_000)).toBe(16);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

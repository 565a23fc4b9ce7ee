import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TransitionPacer } from './use-transition-pacer';

/** A frame every 16 ms of the fake clock. */
const FRAME_MS = 16;

// Fake timers stand in for the browser's clock, and a stand-in `requestAnimationFrame` on them for its frames
// (Node has none): the pacer's rule is arithmetic on them. React's transitions themselves run in the hook's
// tests (use-s3-upload.test.tsx), the browser suites and the benches.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  vi.stubGlobal('requestAnimationFrame', (callback: (now: number) => void) =>
    setTimeout(() => callback(performance.now()), FRAME_MS - (performance.now() % FRAME_MS)),
  );
  vi.stubGlobal('cancelAnimationFrame', (frame: ReturnType<typeof setTimeout>) => clearTimeout(frame));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A pacer whose transitions are recorded: each entry is the updates one transition ran. */
function recordedPacer() {
  const transitions: (() => void)[][] = [];
  const pacer = new TransitionPacer((updates) => transitions.push(updates));
  return { pacer, transitions };
}

const a = () => {};
const b = () => {};
const c = () => {};

/** A pacer whose first transition (update `a`) rendered for `renderMs` of the fake clock, then committed. */
async function pacerAfterOneRender(renderMs: number) {
  const recorded = recordedPacer();
  recorded.pacer.schedule(a);
  await vi.advanceTimersByTimeAsync(renderMs);
  recorded.pacer.committed();
  return recorded;
}

describe('TransitionPacer', () => {
  it('runs one transition at a time: what is scheduled meanwhile runs, each update once, after it is drawn', async () => {
    const { pacer, transitions } = recordedPacer();
    pacer.schedule(a);
    expect(transitions).toEqual([[a]]);
    pacer.schedule(b);
    pacer.schedule(c);
    pacer.schedule(b);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transitions).toHaveLength(1);
    pacer.committed();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transitions).toEqual([[a], [b, c]]);
  });

  it('a paced update waits 19 times what the last render and its frame cost (a twentieth of the thread)', async () => {
    // The render's slices and commit: 10 ms.
    const { pacer, transitions } = await pacerAfterOneRender(10);
    pacer.schedule(b);
    // The frame that draws it comes within 16 ms (its style and layout take no fake time; the task after it, 1 ms
    // at most), then 19 times the 10-11 ms: 190-209 ms of pause.
    await vi.advanceTimersByTimeAsync(189);
    expect(transitions).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(16 + 19 + 2);
    expect(transitions).toEqual([[a], [b]]);
  });

  it('a slow render earns a pause of at most 1 s', async () => {
    const { pacer, transitions } = await pacerAfterOneRender(500);
    pacer.schedule(b);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transitions).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(FRAME_MS + 2);
    expect(transitions).toEqual([[a], [b]]);
  });

  it('an unpaced update (the next rows of a growing list, the last snapshot) runs once the last is drawn, with the paced ones queued', async () => {
    const { pacer, transitions } = await pacerAfterOneRender(50);
    pacer.schedule(b);
    pacer.schedule(c, false);
    await vi.advanceTimersByTimeAsync(FRAME_MS + 2);
    expect(transitions).toEqual([[a], [b, c]]);
  });

  it('where no frame comes (a hidden tab), the next runs after 100 ms, with no pause', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    const { pacer, transitions } = await pacerAfterOneRender(50);
    pacer.schedule(b);
    await vi.advanceTimersByTimeAsync(99);
    expect(transitions).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transitions).toEqual([[a], [b]]);
  });

  it('a commit with no transition waiting (the first render) changes nothing', () => {
    const { pacer, transitions } = recordedPacer();
    pacer.committed();
    pacer.schedule(a);
    expect(transitions).toEqual([[a]]);
  });
});

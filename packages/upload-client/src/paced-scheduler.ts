/**
 * Where there is no animation frame (Node, a web worker): a batch waiting for a frame starts after this many
 * milliseconds, about one frame of a 60 Hz screen.
 */
const FRAME_MS = 16;

/**
 * Where frames exist but may stop (a hidden tab pauses `requestAnimationFrame`), a timer still starts a batch
 * waiting for a frame after this many milliseconds; in a visible tab the frame comes first.
 */
const PAUSED_FRAME_MS = 100;

/**
 * Most of the main thread the scheduled work may take, with the work it starts (a framework's render in the
 * microtasks after it, or a React transition's slices and commit, and the browser's style and layout of the
 * frame): after a batch that cost `d` ms, the next paced one starts `d * (1 / share - 1)` ms later at the earliest
 * (19 d at a twentieth, at most `MAX_PAUSE_MS`). The uploads keep the rest of the thread: their next request
 * starts in a network answer's task, which waits while a render runs. Measured on a machine of two cores
 * (bench/notes/lists-at-scale.md): the tracker's listeners with a quarter held a page drawing 5,000 rows well
 * below the bare upload loop's files per second; a tenth gave about 0.89x of it, a twentieth about 0.93x; a plain
 * `useS3Upload` list of 5,000 rows rendered in paced transitions read about 0.86x at a tenth, 0.96x at a
 * twentieth. Work cheap to draw (a few ms: the components' virtualized list) still follows every frame or
 * nearly; a render of 40 ms is drawn about once a second.
 */
const SHARE = 0.05;

/** Longest pause a slow batch earns, in milliseconds: paced work still runs once a second at worst, however slow. */
const MAX_PAUSE_MS = 1000;

/** The pause a batch earns per millisecond it cost: the rest of the thread, `1 / SHARE - 1` (19 at a twentieth). */
const PAUSE_PER_MS = 1 / SHARE - 1;

/**
 * How a binding runs the work a {@link createPacedScheduler} starts, and tells what it cost: the pace it sets.
 */
export interface Pace {
  /**
   * Runs `tasks` (each scheduled task once, in the order first scheduled since the last batch), then calls
   * `done(costMs)` once, when their work is on screen, with what it took in milliseconds (the pause that follows
   * is reckoned from it), or `done()` where no cost can be measured (a hidden tab: no pause then).
   */
  run: (tasks: (() => void)[], done: (costMs?: number) => void) => void;
  /**
   * The next batch starts after `done`, not before: work scheduled meanwhile waits for it (a React transition
   * started during another's render joins it, and that render starts over). `false`: work scheduled after a
   * batch ran waits for the next frame and the pause already earned; the pause `done` tells holds from the batch
   * after.
   * @default true
   */
  oneAtATime?: boolean;
  /**
   * A batch starts at the next animation frame (or after a timer where frames do not come: 16 ms without any,
   * 100 ms in a hidden tab), gathering every task scheduled before it. Else it starts at once when free.
   * @default false
   */
  atFrame?: boolean;
}

/** Runs `task` in the next batch of a {@link createPacedScheduler}'s; `paced` (default `true`): see there. */
export type PacedSchedule = (task: () => void, paced?: boolean) => void;

/**
 * Runs scheduled work in batches, leaving most of the main thread to the uploads: after a batch that cost `d` ms,
 * the next paced one starts `19 d` ms later at the earliest, within 1 s (the work takes about a twentieth of the
 * thread); an unpaced task (`paced` false) runs as soon as the last batch is done, with the paced tasks queued.
 * A binding sets the pace: when a batch starts and how its cost is measured ({@link Pace}). The tracker notifies
 * its listeners through one (at the next frame, timed up to the next task); `useS3Upload` of
 * `@upbeam/upload-react` renders its list through another (in React transitions, one at a time, each timed to
 * the frame that draws its commit). Work scheduled is never lost: each task (a stable function, reading what it
 * needs when it runs) runs once in the next batch, however often it is scheduled before it.
 * @returns the function that schedules a task.
 *
 * @example
 * const schedule = createPacedScheduler({
 *   run: (tasks, done) => {
 *     const started = performance.now();
 *     for (const task of tasks) task();
 *     setTimeout(() => done(performance.now() - started), 0);
 *   },
 *   atFrame: true,
 * });
 * schedule(render); // render runs at the next frame, once
 */
export function createPacedScheduler(pace: Pace): PacedSchedule {
  const queued = new Set<() => void>();
  let unpacedQueued = false;
  /** A batch ran and its cost is not yet told (`done`; with `oneAtATime`). */
  let running = false;
  /** Set while a batch waits to start: for the pause to end, or for the frame (with `frame`). */
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  /** `performance.now()` before which a paced batch does not start (the last batch was slow). */
  let notBefore = 0;

  const callOff = (): void => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = timer = undefined;
  };

  const start = (): void => {
    // Whichever of the frame and the timer comes first starts the batch; the other is called off.
    callOff();
    const tasks = [...queued];
    queued.clear();
    unpacedQueued = false;
    running = pace.oneAtATime !== false;
    pace.run(tasks, (costMs) => {
      if (costMs !== undefined) notBefore = performance.now() + Math.min(costMs * PAUSE_PER_MS, MAX_PAUSE_MS);
      running = false;
      startWhenFree();
    });
  };

  const startOrWaitForFrame = (): void => {
    if (!pace.atFrame) return start();
    if (typeof requestAnimationFrame === 'function') {
      frame = requestAnimationFrame(() => {
        frame = undefined;
        start();
      });
      timer = setTimeout(start, PAUSED_FRAME_MS);
    } else {
      timer = setTimeout(start, FRAME_MS);
    }
  };

  const startWhenFree = (): void => {
    // Already waiting to start: only an unpaced task cuts the wait short.
    if (running || queued.size === 0 || (timer !== undefined && !unpacedQueued)) return;
    callOff();
    const wait = unpacedQueued ? 0 : notBefore - performance.now();
    // Once the pause is over the batch goes on, without reading the clock again (no batch runs meanwhile to
    // change the pause).
    if (wait > 0) timer = setTimeout(startOrWaitForFrame, wait);
    else startOrWaitForFrame();
  };

  return (task, paced = true) => {
    queued.add(task);
    if (!paced) unpacedQueued = true;
    startWhenFree();
  };
}

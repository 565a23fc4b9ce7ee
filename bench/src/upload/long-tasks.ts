/**
 * The main thread's tasks over 50 ms seen by a benchmark page (Long Tasks API, `PerformanceObserver`
 * `longtask`): wall time, so a starved CPU lengthens them. Importing this module starts observing.
 */

/** The main thread's tasks over 50 ms during one measured run. */
export interface LongTasks {
  count: number;
  /** Milliseconds of the longest task (0 when none). */
  maxMs: number;
  /** Milliseconds of all of them. */
  totalMs: number;
}

const longTaskEntries: PerformanceEntry[] = [];
const longTaskObserver = new PerformanceObserver((list) => longTaskEntries.push(...list.getEntries()));
longTaskObserver.observe({ type: 'longtask' });

/** Long tasks that started at or after `since` (a `performance.now()` time). */
export function longTasksSince(since: number): LongTasks {
  longTaskEntries.push(...longTaskObserver.takeRecords());
  const durations = longTaskEntries.filter((entry) => entry.startTime >= since).map((entry) => entry.duration);
  return {
    count: durations.length,
    maxMs: Math.round(Math.max(0, ...durations)),
    totalMs: Math.round(durations.reduce((sum, ms) => sum + ms, 0)),
  };
}

/**
 * What one long animation frame (Long Animation Frames API, chromium) spent its time on: the scripts it ran
 * (by where they were called from), the style and layout, and the rest of its rendering.
 */
export interface LongFrame {
  /** Milliseconds from `since` to the frame's start. */
  at: number;
  /** Milliseconds of the frame, from its first task to its paint. */
  ms: number;
  /**
   * Milliseconds of script (every script of 5 ms or more, the frame's callbacks included), of style and layout, and
   * of the rest of the frame's rendering (its callbacks' scripts left out).
   */
  scriptMs: number;
  styleLayoutMs: number;
  renderMs: number;
  /** The longest scripts: what called them (`invoker`, e.g. `FrameRequestCallback` or `MessagePort.onmessage`) and their milliseconds. */
  scripts: { invoker: string; ms: number }[];
}

interface AnimationFrameEntry extends PerformanceEntry {
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: { invoker: string; sourceFunctionName: string; startTime: number; duration: number }[];
}

const frameEntries: PerformanceEntry[] = [];
const frameObserver = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
  ? new PerformanceObserver((list) => frameEntries.push(...list.getEntries()))
  : undefined;
frameObserver?.observe({ type: 'long-animation-frame' });

/**
 * The `top` longest animation frames over 50 ms that started at or after `since`, each split into script,
 * style and layout, and rendering; empty where the browser lacks the API.
 */
export function longFramesSince(since: number, top = 8): LongFrame[] {
  if (frameObserver) frameEntries.push(...frameObserver.takeRecords());
  const round = (ms: number) => Math.round(ms);
  return (frameEntries as AnimationFrameEntry[])
    .filter((entry) => entry.startTime >= since)
    .sort((a, b) => b.duration - a.duration)
    .slice(0, top)
    .map((entry) => {
      const end = entry.startTime + entry.duration;
      const styleLayoutMs = entry.styleAndLayoutStart > 0 ? end - entry.styleAndLayoutStart : 0;
      // The rendering step runs the frame's callbacks (`requestAnimationFrame`: scripts, counted there) first.
      const frameScriptsMs = entry.scripts.filter((script) => script.startTime >= entry.renderStart).reduce((sum, script) => sum + script.duration, 0);
      const renderMs = entry.renderStart > 0 ? Math.max(0, end - entry.renderStart - styleLayoutMs - frameScriptsMs) : 0;
      const scripts = entry.scripts
        .map((script) => ({ invoker: `${script.invoker}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ''}`, ms: round(script.duration) }))
        .sort((a, b) => b.ms - a.ms);
      return {
        at: round(entry.startTime - since),
        ms: round(entry.duration),
        scriptMs: round(entry.scripts.reduce((sum, script) => sum + script.duration, 0)),
        styleLayoutMs: round(styleLayoutMs),
        renderMs: round(renderMs),
        scripts: scripts.slice(0, 3),
      };
    });
}

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

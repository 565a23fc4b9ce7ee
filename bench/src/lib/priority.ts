/**
 * Storage at a lower CPU priority than the client. In production the storage is another machine; here it shares
 * the 2 cores with the browser, and a radosgw write keeps 20-40 of its threads runnable (load average 23 at 1 GiB,
 * 2026-11-28): the page's main thread then waits for a core, and a task of a few ms of CPU reads as over 50 ms of
 * wall time. At nice 10 storage still takes every cycle the client leaves idle.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The niceness given to storage's processes. */
export const STORAGE_NICENESS = 10;

/**
 * Sets the niceness of every thread of each process (Linux's niceness is per thread: a process's new threads
 * inherit it from the thread that makes them). Returns the threads changed.
 */
export function renice(pids: number[], niceness = STORAGE_NICENESS): number {
  let threads = 0;
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited
    }
    for (const tid of tids) {
      try {
        setPriority(Number(tid), niceness);
        threads++;
      } catch {
        // exited meanwhile
      }
    }
  }
  return threads;
}

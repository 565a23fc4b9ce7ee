/**
 * A quiet machine before each measured upload: what the last upload left running (storage flushing or
 * freeing what was deleted, chromium closing the last page) would otherwise run beside the next one and take
 * its CPU, on a machine of 2 cores. Reads the whole machine's CPU time from Linux's /proc/stat.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Busy and total CPU ticks of the whole machine since boot (the first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idle = fields[3]! + fields[4]!;
  return { busy: total - idle, total };
}

/** Cores busy on average over `windowMs` milliseconds (0 to the machine's core count). */
export async function busyCores(windowMs: number): Promise<number> {
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const after = machineTicks();
  const total = after.total - before.total;
  return total > 0 ? ((after.busy - before.busy) / total) * cpus().length : 0;
}

/** The defaults of {@link waitForQuietMachine}. */
export const QUIET_DEFAULTS = { maxBusyCores: 0.25, windowMs: 250, timeoutMs: 20_000 } as const;

export interface QuietOptions {
  /** Busy cores (a sum over cores) under which the machine counts as quiet. @default 0.25 */
  maxBusyCores?: number;
  /** Each measurement's window, ms. @default 250 */
  windowMs?: number;
  /** Longest wait, ms: the upload then runs anyway and the wait says so. @default 20000 */
  timeoutMs?: number;
}

/** What {@link waitForQuietMachine} saw: how long it waited and the last window's busy cores. */
export interface QuietWait {
  waitedMs: number;
  busyCores: number;
  /** The machine stayed busy for the whole `timeoutMs`. */
  timedOut: boolean;
}

/** Waits until one window of `windowMs` has fewer than `maxBusyCores` busy (bounded by `timeoutMs`). */
export async function waitForQuietMachine({
  maxBusyCores = QUIET_DEFAULTS.maxBusyCores,
  windowMs = QUIET_DEFAULTS.windowMs,
  timeoutMs = QUIET_DEFAULTS.timeoutMs,
}: QuietOptions = {}): Promise<QuietWait> {
  const started = performance.now();
  for (;;) {
    const busy = await busyCores(windowMs);
    const waitedMs = Math.round(performance.now() - started);
    if (busy < maxBusyCores) return { waitedMs, busyCores: busy, timedOut: false };
    if (waitedMs >= timeoutMs) return { waitedMs, busyCores: busy, timedOut: true };
  }
}

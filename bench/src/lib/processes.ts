/** Processes found by what they run, from Linux's /proc. */
import { readdirSync, readFileSync } from 'node:fs';

/** The processes whose command line holds `needle` (e.g. a cluster's folder). */
export function pidsMatching(needle: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

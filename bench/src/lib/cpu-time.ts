/**
 * CPU time spent by processes, from Linux's /proc: what a client and the storage cost the machine per upload.
 * On a 2-core machine the client's CPU is taken from the storage server's, so a client that spends more CPU
 * per byte leaves storage less of it: these figures say where an upload's time goes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pidsMatching } from './processes';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime of the process, and cutime + cstime of the children it has reaped, in ticks. */
  own: number;
  reaped: number;
}

function readStat(pid: number | 'self'): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    return { pid: Number(text.slice(0, text.indexOf(' '))), ppid: field(4), own: field(14) + field(15), reaped: field(16) + field(17) };
  } catch {
    return undefined;
  }
}

function allStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.push(stat);
  }
  return stats;
}

/**
 * CPU seconds of the process `root` and all its descendants, the exited ones included (their time is in
 * the `reaped` counters of the process that waited for them, when that one is in the tree).
 */
export function treeCpuSeconds(root: number): number {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let ticks = 0;
  const rootStat = stats.find((stat) => stat.pid === root);
  for (let queue = rootStat ? [rootStat] : []; queue.length > 0; ) {
    const stat = queue.pop()!;
    ticks += stat.own + stat.reaped;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}

/** A chromium process's kind from its command line: `browser`, `renderer`, `network` (the network service), `gpu-process`, ... */
function chromiumKind(pid: number): string {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    return 'exited';
  }
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const type = value('type');
  if (!type) return 'browser';
  const sub = value('utility-sub-type');
  return sub?.includes('NetworkService') ? 'network' : (sub?.split('.').pop() ?? type);
}

/**
 * {@link treeCpuSeconds} split by chromium process kind (see `chromiumKind`); the time of exited processes
 * counts for the process that reaped them (the zygote, for renderers).
 */
export function treeCpuSecondsByKind(root: number): Record<string, number> {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const byKind: Record<string, number> = {};
  const rootStat = stats.find((stat) => stat.pid === root);
  for (let queue = rootStat ? [rootStat] : []; queue.length > 0; ) {
    const stat = queue.pop()!;
    const kind = chromiumKind(stat.pid);
    byKind[kind] = (byKind[kind] ?? 0) + (stat.own + stat.reaped) / TICKS_PER_SECOND;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return byKind;
}

/** CPU seconds of the processes whose command line contains `needle` (e.g. a Ceph cluster's config path). */
export function matchingCpuSeconds(needle: string): number {
  let ticks = 0;
  for (const pid of pidsMatching(needle)) {
    const stat = readStat(pid);
    if (stat) ticks += stat.own + stat.reaped;
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds of this process (utime + stime). */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds of the children this process has waited for (curl, once it has exited). */
export function reapedChildrenCpuSeconds(): number {
  return (readStat('self')?.reaped ?? 0) / TICKS_PER_SECOND;
}

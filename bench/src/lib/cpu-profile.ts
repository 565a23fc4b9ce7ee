/**
 * A V8 CPU profile (`.cpuprofile`, from node:inspector or `node --cpu-prof`) summed up: the frames where
 * the time was spent (self time), and the same by package, so that RESULTS.md can say what a request costs.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileFrame {
  /** Function name and where it is: `name (package/file:line)`. */
  frame: string;
  /** Share of the busy time (idle excluded), 0..1. */
  share: number;
}

export interface ProfileSummary {
  /** Milliseconds the thread ran JavaScript, natives or GC (idle excluded). */
  busyMs: number;
  /** Milliseconds idle (waiting for the network). */
  idleMs: number;
  top: ProfileFrame[];
  /** Self time by package (`node:*` internals by module, V8's own entries by name). */
  byPackage: ProfileFrame[];
}

/** `node_modules/.pnpm/x@1/node_modules/@scope/name/dist/a.js` → `@scope/name/dist/a.js`; workspace packages from `packages/`. */
function shortPath(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const packages = url.lastIndexOf('/packages/');
  if (packages >= 0) return `@upbeam/${url.slice(packages + '/packages/'.length)}`;
  return url.replace(/^file:\/\//, '');
}

function packageOf(frame: CallFrame): string {
  if (!frame.url) return frame.functionName;
  const path = shortPath(frame.url);
  if (path.startsWith('node:')) return path;
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function ranked(times: Map<string, number>, total: number, count: number): ProfileFrame[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, time]) => ({ frame, share: time / total }));
}

/** The `count` frames with the most self time, and the time by package. */
export function summarizeProfile(profile: CpuProfile, count = 15): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFrame = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id)!;
    const time = profile.timeDeltas[index] ?? 0;
    if (frame.functionName === '(idle)') {
      idle += time;
      return;
    }
    busy += time;
    const where = frame.url ? ` (${shortPath(frame.url)}:${frame.lineNumber + 1})` : '';
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    byFrame.set(name, (byFrame.get(name) ?? 0) + time);
    byPackage.set(packageOf(frame), (byPackage.get(packageOf(frame)) ?? 0) + time);
  });
  return { busyMs: busy / 1000, idleMs: idle / 1000, top: ranked(byFrame, busy, count), byPackage: ranked(byPackage, busy, count) };
}

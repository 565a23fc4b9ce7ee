/**
 * The client's cores and the servers' cores of the upload benchmark. In production the browser and the storage
 * are different machines; here they share 2 cores (the default layout): every CPU second the page spends
 * (drawing its progress: 60-90 ms per 128 MiB multipart upload) is one that radosgw's 600 threads do not get, and
 * a page's task may wait for a core radosgw holds. With `UPLOAD_CORES=split` the client (chromium and curl) runs on
 * core 0 and the servers (storage, the app's server and the DevTools driver in the benchmark's process) on the
 * rest, where `taskset` is there and the machine has 2 cores or more.
 *
 * Split is not the default: on one core chromium alone is busy most of a multipart upload (0.77 s of CPU per
 * 128 MiB, half of it the browser process reading the parts' Blobs), so the page's extra CPU costs about as much
 * there, and a single PUT at 300 MB/s keeps the core so busy that the bare XHR floor's page saw 226 ms tasks
 * (run D, 2026-11-28 evening: bench/notes/upload-cpu.md).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { HAS_TASKSET } from './child';

/** Cores as taskset's lists name them (`0`, `1-3`). */
export interface CoreLayout {
  client: string;
  servers: string;
}

/** The layout the benchmark's processes follow (`useCoreLayout`); none: every process may run on every core. */
let current: CoreLayout | undefined;

/** The layout asked for by `UPLOAD_CORES=split` on this machine (see the module's comment); else none. */
export function coreLayoutFromEnv(env = process.env): CoreLayout | undefined {
  const cores = os.cpus().length;
  if (env.UPLOAD_CORES !== 'split' || !HAS_TASKSET || cores < 2) return undefined;
  return { client: '0', servers: cores === 2 ? '1' : `1-${cores - 1}` };
}

/**
 * Follows `layout` from now on: the benchmark's own process (its threads, and the processes it starts later
 * unless started by {@link onClientCores}) moves to the servers' cores.
 */
export function useCoreLayout(layout: CoreLayout | undefined): void {
  current = layout;
  if (layout) pinProcesses([process.pid], layout.servers);
}

/** The servers' processes (every thread of each) to the servers' cores; nothing in the shared layout. */
export function pinToServerCores(pids: number[]): void {
  if (current) pinProcesses(pids, current.servers);
}

/** `file` and `args` to start a client process (chromium, curl): on the client's core in the split layout. */
export function onClientCores(file: string, args: string[]): [string, string[]] {
  return current ? ['taskset', ['-c', current.client, file, ...args]] : [file, args];
}

/** Sets the cores of every thread of each process (a thread made later takes its maker's). */
function pinProcesses(pids: number[], cpus: string): void {
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      // exited meanwhile
    }
  }
}

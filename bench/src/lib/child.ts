/** Child processes of the benchmarks: a server per process, stopped by closing its stdin. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BENCH_DIR } from './paths';

export interface Child {
  process: ChildProcess;
  /** The JSON the child printed on its first stdout line. */
  ready: Record<string, unknown>;
  stop(): Promise<void>;
}

/** Whether `taskset` is there to pin processes to cores. */
export const HAS_TASKSET = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;

/**
 * Runs `tsx script ...args` and waits for its first stdout line (JSON). With `cpu`, the child is pinned to
 * that core (taskset), so that on a 2-core machine the server and the load generator do not share one.
 */
export async function startChild(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; cpu?: number; timeoutMs?: number } = {},
): Promise<Child> {
  const node = [process.execPath, '--import', 'tsx', script, ...args];
  const [file, ...argv] = options.cpu !== undefined && HAS_TASKSET ? ['taskset', '-c', String(options.cpu), ...node] : node;
  const child = spawn(file!, argv, {
    cwd: BENCH_DIR,
    env: { ...process.env, NODE_ENV: 'production', NODE_NO_WARNINGS: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} ${args.join(' ')} did not start`)), options.timeoutMs ?? 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} ${args.join(' ')} exited with ${code}`));
    });
  });
  lines.on('line', (line) => console.log(`[${args[0] ?? script}] ${line}`));
  let stopping: Promise<void> | undefined;
  return {
    process: child,
    ready,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin?.end();
      })),
  };
}

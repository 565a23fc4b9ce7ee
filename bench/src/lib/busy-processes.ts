import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A busy machine on demand: `count` Node processes that each keep one core busy (a loop reading the clock)
 * for at most `maxSeconds`, beside whatever the bench measures. Stands for the uploads' and the storage's
 * CPU in a bench that runs none (bench:growth), so that a rule meant for a busy machine is measured on one
 * without the network's noise. Returns the function that ends them (by their PIDs); each also ends itself
 * after `maxSeconds`, should the bench die first.
 */
export function startBusyProcesses(count: number, maxSeconds: number): () => void {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${Math.round(maxSeconds * 1000)}; while (Date.now() < end) {}`], {
      stdio: 'ignore',
    }),
  );
  return () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
}

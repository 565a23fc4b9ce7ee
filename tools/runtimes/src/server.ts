import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A runtime serving the matrix's app (`tools/runtimes/app`) on 127.0.0.1. */
export interface RuntimeServer {
  /** `http://127.0.0.1:{port}/` (or the app's route): POST preparation requests here. */
  url: string;
  /** What the process wrote to stdout and stderr so far (the handler's `onError` logs land here). */
  output(): string;
  close(): Promise<void>;
}

/** How long a runtime may take to answer its first request, in milliseconds (workerd: ~1 s idle). */
const START_TIMEOUT_MS = 30_000;

/** A free port on 127.0.0.1 (asked of the OS, then released for the runtime to take). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `command` (one server process) and resolves once `http://127.0.0.1:{port}{path}` answers any HTTP
 * request (`path`: `/` unless given). Rejects with the process's output when it exits first or does not answer within 30 s.
 */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; port: number; env?: Record<string, string>; path?: string },
): Promise<RuntimeServer> {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}${options.path ?? '/'}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}) before answering:\n${output}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return { url, output: () => output, close };
    await sleep(200);
  }
  await close();
  throw new Error(`${command} did not answer on ${url} within ${START_TIMEOUT_MS} ms:\n${output}`);
}

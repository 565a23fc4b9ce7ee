/**
 * @module
 * A real Redis for the tests: Debian's `redis-server` (`bash scripts/setup.sh --services` installs it) on a
 * free port of 127.0.0.1, in a temp folder, started by the test file that needs it. No persistence unless
 * asked (`appendOnly`): a test that kills Redis and wants its counts back after the restart asks for the
 * append-only file, fsynced on every write. Each process is known by its PID: `kill()` sends SIGKILL to that
 * PID only, `stop()` SIGTERM.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What to run when redis-server is missing. */
export const REDIS_MISSING = 'redis-server is not installed: run `bash scripts/setup.sh --services` (apt-get install redis-server).';

/** Options of {@link startRedis}. */
export interface RedisServerOptions {
  /** The port on 127.0.0.1. @default a free one */
  port?: number;
  /**
   * Keep an append-only file in the temp folder, fsynced after every write (`appendfsync always`): a Redis
   * killed with SIGKILL comes back from `restart()` with every write it acknowledged. @default false (nothing
   * survives a restart)
   */
  appendOnly?: boolean;
}

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:{port}` */
  url: string;
  port: number;
  /** Its temp folder (the append-only file, if any). */
  dir: string;
  /** The PID of the running process (changes on `restart()`). */
  readonly pid: number;
  /** SIGTERM, waits for it to exit, removes the temp folder. Safe to call twice. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing flushed), waits for it to exit; `restart()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts it again (after `kill()`) on the same port and folder; resolves once it accepts connections. */
  restart(): Promise<void>;
}

/** Whether Debian's redis-server is installed. */
export function isRedisAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Starts redis-server; resolves once it accepts connections (~50 ms). */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!isRedisAvailable()) throw new Error(REDIS_MISSING);
  const port = options.port ?? (await freePort());
  const dir = await mkdtemp(join(tmpdir(), 'upbeam-redis-'));
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no', '--save', '',
    '--appendonly', options.appendOnly ? 'yes' : 'no', '--appendfsync', 'always', '--logfile', '',
  ];
  let child = await launch(args);
  let removed = false;

  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid!, signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return child.pid!;
    },
    async stop() {
      await end('SIGTERM');
      if (!removed) rmSync(dir, { recursive: true, force: true });
      removed = true;
    },
    kill: () => end('SIGKILL'),
    async restart() {
      await end('SIGKILL');
      child = await launch(args);
    },
  };
}

/** Spawns redis-server; resolves when it logs that it is ready, rejects if it exits first. */
function launch(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Ready to accept connections/.test(log)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${log}`));
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

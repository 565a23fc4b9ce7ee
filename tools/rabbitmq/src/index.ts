/**
 * @module
 * A real RabbitMQ broker on 127.0.0.1 for the scale tests: Debian's `rabbitmq-server` (`scripts/setup.sh
 * --services` installs it), started as the current user in a temp folder, never as the system service. It has its
 * own node name, AMQP port, distribution port, epmd (on a port of its own, which this module starts and ends, so
 * that no other epmd on the machine is touched), Erlang cookie (`HOME` is the folder), data and logs; no plugin
 * (the management plugin is off) and `loopback_users = none` (the `guest` user may connect from 127.0.0.1).
 *
 * The broker runs in a process group of its own (the script, `beam.smp` and its helpers): stopping or killing it
 * signals that group by its leader's PID, nothing else. Started in ~5 s on an idle 2-core machine, ~15 s beside
 * other builds (`startSeconds` tells the run's figure).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { connect as connectSocket, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { connect as connectAmqp } from 'amqplib';

export { startForwarder, type Forwarder } from './forwarder';

/** Debian's broker script, run directly: `/usr/sbin/rabbitmq-server` would switch to the `rabbitmq` user. */
export const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

/** What to run when the broker is missing. */
export const RABBITMQ_MISSING = 'rabbitmq-server is not installed: run `bash scripts/setup.sh --services` (apt-get install of redis-server and rabbitmq-server).';

const execFileAsync = promisify(execFile);

/** Milliseconds a start may take before it is given up: ~15 s on a busy 2-core machine, 4x that. */
const START_TIMEOUT_MS = 60_000;
/** Milliseconds a graceful stop may take before the group is killed: the broker flushes its queues to disk. */
const STOP_TIMEOUT_MS = 30_000;

/** Whether the broker and epmd are installed. */
export function isRabbitmqAvailable(): boolean {
  try {
    accessSync(RABBITMQ_SERVER, constants.X_OK);
  } catch {
    return false;
  }
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, 'epmd'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A running broker. */
export interface Rabbitmq {
  /** `amqp://guest:guest@127.0.0.1:{port}` */
  url: string;
  /** The AMQP port on 127.0.0.1. */
  port: number;
  /** The broker's folder: `log/` holds its log, `mnesia/` its queues (kept across {@link Rabbitmq.restart}). */
  dir: string;
  /** Seconds the last start (or restart) took until the broker accepted an AMQP connection. */
  startSeconds: number;
  /**
   * Each queue's messages ready and delivered but not acknowledged, as `rabbitmqctl list_queues` tells them
   * (~2 s: it boots an Erlang node). Needs a running broker.
   */
  queues(): Promise<QueueCounts[]>;
  /** Stops the broker (SIGTERM to its group, SIGKILL after 30 s) and its epmd, and removes the folder. */
  stop(): Promise<void>;
  /** Kills the broker's group with SIGKILL (a crash): its epmd and folder stay, for {@link Rabbitmq.restart}. */
  kill(): Promise<void>;
  /** Stops the broker if it runs (gracefully), then starts it again with the same name, port and data. */
  restart(): Promise<void>;
}

/** One queue's counts (see {@link Rabbitmq.queues}). */
export interface QueueCounts {
  name: string;
  /** Messages waiting for a consumer. */
  ready: number;
  /** Messages delivered to a consumer and not acknowledged yet. */
  unacked: number;
}

/**
 * Starts a broker in a fresh temp folder on free ports of 127.0.0.1 and waits until it accepts an AMQP connection.
 * @throws Error when the broker is not installed, or does not accept a connection within 60 s (with its log's end).
 */
export async function startRabbitmq(): Promise<Rabbitmq> {
  if (!isRabbitmqAvailable()) throw new Error(RABBITMQ_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'upbeam-rabbitmq-'));
  const [port, distPort, epmdPort] = (await freePorts(3)) as [number, number, number];
  const url = `amqp://guest:guest@127.0.0.1:${port}`;
  writeFileSync(join(dir, 'rabbitmq.conf'), ['loopback_users = none', `listeners.tcp.1 = 127.0.0.1:${port}`, 'log.console = false', ''].join('\n'));
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  mkdirSync(join(dir, 'log'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: `upbeam-${process.pid}-${Math.random().toString(36).slice(2, 8)}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_PLUGINS_EXPAND_DIR: join(dir, 'plugins-expand'),
    RABBITMQ_GENERATED_CONFIG_DIR: join(dir, 'generated'),
    RABBITMQ_PID_FILE: join(dir, 'rabbitmq.pid'),
    // Not Debian's /etc/rabbitmq/rabbitmq-env.conf: this folder's settings only.
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    // The distribution listener on 127.0.0.1 too (it listens on every interface by default).
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };

  // Our own epmd, in the foreground: the broker finds it on ERL_EPMD_PORT and starts none (an epmd it started
  // would detach, `-daemon`, and outlive it).
  const epmd = spawn('epmd', ['-port', String(epmdPort), '-address', '127.0.0.1'], { env, stdio: 'ignore' });
  let broker: ChildProcess | undefined;
  const onExit = () => {
    signalGroup(broker, 'SIGKILL');
    epmd.kill('SIGKILL');
  };
  process.once('exit', onExit);
  await waitForPort(epmdPort, 10_000);

  const logPath = join(dir, 'out.log');
  const startBroker = async () => {
    const started = performance.now();
    const log = openSync(logPath, 'a');
    // A process group of its own (detached): the script, beam.smp and erl_child_setup are signalled together.
    const child = spawn(RABBITMQ_SERVER, [], { env, cwd: dir, detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    broker = child;
    const exited = new Promise<never>((_, fail) =>
      child.once('exit', (code, signal) => fail(new Error(`rabbitmq-server exited (${code ?? signal}) before accepting connections:\n${tail(logPath)}`))),
    );
    exited.catch(() => {});
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) await exited;
      try {
        const connection = await Promise.race([connectAmqp(url), exited]);
        await connection.close();
        break;
      } catch (error) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          signalGroup(child, 'SIGKILL');
          throw new Error(`rabbitmq-server did not accept AMQP on ${port} within ${START_TIMEOUT_MS / 1000} s:\n${tail(logPath)}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    handle.startSeconds = (performance.now() - started) / 1000;
  };
  const stopBroker = async (signal: NodeJS.Signals) => {
    const child = broker;
    broker = undefined;
    if (!child || !groupAlive(child)) return;
    signalGroup(child, signal);
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (groupAlive(child)) {
      if (Date.now() > deadline) signalGroup(child, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  let stopping: Promise<void> | undefined;
  const handle: Rabbitmq = {
    url,
    port,
    dir,
    startSeconds: 0,
    stop: () =>
      (stopping ??= (async () => {
        await stopBroker('SIGTERM');
        if (epmd.exitCode === null && epmd.signalCode === null) {
          const ended = new Promise((resolve) => epmd.once('exit', resolve));
          epmd.kill('SIGTERM');
          const timer = setTimeout(() => epmd.kill('SIGKILL'), 2000);
          await ended;
          clearTimeout(timer);
        }
        process.off('exit', onExit);
        rmSync(dir, { recursive: true, force: true });
      })()),
    kill: () => stopBroker('SIGKILL'),
    queues: async () => {
      const { stdout } = await execFileAsync(
        '/usr/lib/rabbitmq/bin/rabbitmqctl',
        ['-n', env.RABBITMQ_NODENAME!, '-q', 'list_queues', 'name', 'messages_ready', 'messages_unacknowledged', '--formatter', 'json'],
        { env, timeout: 30_000 },
      );
      const rows = JSON.parse(stdout) as { name: string; messages_ready: number; messages_unacknowledged: number }[];
      return rows.map((row) => ({ name: row.name, ready: row.messages_ready, unacked: row.messages_unacknowledged }));
    },
    restart: async () => {
      await stopBroker('SIGTERM');
      await startBroker();
    },
  };
  try {
    await startBroker();
  } catch (error) {
    await handle.stop().catch(() => {});
    throw error;
  }
  return handle;
}

/** Signals every process of the child's group (its PID is the group's id, as it was spawned detached). */
function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals) {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone.
  }
}

/** Whether any process of the child's group still runs. */
function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no output)';
  }
}

/** `count` distinct free ports on 127.0.0.1 (held open together, so that none is given twice). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((done, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => done(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connectSocket(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

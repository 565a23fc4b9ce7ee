/**
 * @module
 * Several upload handler processes behind one load balancer, on 127.0.0.1: each a child Node process running
 * `createUploadHandler` of the built `@upbeam/upload-server` (CommonJS, resolved from packages/upload-server)
 * through `toNodeHandler` (`handler-process.mjs`),
 * its limits counted in one Redis (`redisLimitStore`) when given `redisUrl`; in front of them a small
 * round-robin HTTP proxy in this process (keep-alive to each handler). For the scale tests and `bench:limits`.
 * Build the package first (`pnpm --filter @upbeam/upload-server build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
// Types only, from the source: this tool declares no dependency on the package (which uses it in its tests).
import type { UploadLimits } from '../../../packages/upload-server/src/limit-store';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROCESS_SCRIPT = join(HERE, 'handler-process.mjs');
/** The package the processes run: its built dist/, resolved as an app resolves it. */
const SERVER_DIR = join(HERE, '..', '..', '..', 'packages', 'upload-server');

/** Settings of every handler process (JSON: what a child can be given). */
export interface HandlerProcessConfig {
  /** Storage settings of `createUploadHandler` (endpoint, region, bucket, keys, forcePathStyle, ...). */
  storage: Record<string, unknown>;
  limits?: UploadLimits;
  /** Counts the limits in this Redis (`redisLimitStore`); without it, each process counts in its own memory. */
  redisUrl?: string;
  /** The Redis store's key prefix. */
  prefix?: string;
  /** The Redis store's `timeoutMs`. */
  timeoutMs?: number;
  limitStoreFailure?: 'fail-closed' | 'fail-open';
  /** Give the handler an `onUploadComplete` (so that every preparation answers a receipt). */
  completionHook?: boolean;
}

/** A running cluster. */
export interface HandlerCluster {
  /** The proxy: `http://127.0.0.1:{port}`; requests go to the processes in turn. */
  url: string;
  /** Each process's own URL. */
  urls: string[];
  pids: number[];
  /** Requests the proxy sent to each process. */
  forwarded: number[];
  /** CPU time (user + system) of the handler processes so far, in microseconds, from /proc. */
  cpuMicros(): number;
  /** What each process's `onError` received: a count and the first messages. */
  errors(): Promise<{ count: number; messages: string[] }[]>;
  /** Stops the proxy and every process (SIGTERM by PID). */
  stop(): Promise<void>;
}

/** Starts `processes` handler processes and the proxy; resolves once every process listens. */
export async function startHandlerCluster(options: { processes?: number; config: HandlerProcessConfig }): Promise<HandlerCluster> {
  const children: ChildProcess[] = [];
  let proxy: Server | undefined;
  try {
    const ports = await Promise.all(
      Array.from({ length: options.processes ?? 3 }, async () => {
        const child = spawn(process.execPath, [PROCESS_SCRIPT], {
          env: { ...process.env, NODE_NO_WARNINGS: '1', UPBEAM_HANDLER_CONFIG: JSON.stringify(options.config), UPBEAM_SERVER_DIR: SERVER_DIR },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        children.push(child);
        return await firstLine(child);
      }),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const forwarded = ports.map(() => 0);
    let next = 0;
    proxy = createServer((incoming, outgoing) => {
      const index = next;
      next = (next + 1) % ports.length;
      forwarded[index]! += 1;
      const forward = httpRequest(
        { host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      });
      incoming.pipe(forward);
    });
    proxy.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const server = proxy;
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      urls,
      pids: children.map((child) => child.pid!),
      forwarded,
      cpuMicros: () => children.reduce((sum, child) => sum + processCpuMicros(child.pid!), 0),
      errors: () => Promise.all(urls.map(async (url) => (await (await fetch(`${url}/__cluster/errors`)).json()) as { count: number; messages: string[] })),
      async stop() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        agent.destroy();
        await Promise.all(children.map(end));
      },
    };
  } catch (error) {
    proxy?.close();
    await Promise.all(children.map(end));
    throw error;
  }
}

/** The port a process prints once it listens; rejects if it exits first. */
function firstLine(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`a handler process exited (${code}) before it listened`)));
  });
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid!, 'SIGTERM');
  await exited;
}

/** utime + stime of one process, in microseconds (/proc/{pid}/stat; clock ticks of 10 ms). */
function processCpuMicros(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

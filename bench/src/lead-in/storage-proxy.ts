/**
 * A thin TCP proxy in front of storage, on 127.0.0.1: every byte goes through untouched (the Host header, and
 * so the presigned signatures, are the proxy's), and the moment each HTTP request's first bytes reach storage's
 * side of the socket is noted (`performance.timeOrigin + performance.now()`, ms since the epoch, as the page
 * notes its pick). A request starts a chunk of its connection: the browser writes a request's head at once,
 * and the next request on a kept-alive connection only after the answer to the one before.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** One request as storage's socket received it. */
export interface SocketRequest {
  /** ms since the epoch when its first bytes arrived. */
  at: number;
  method: string;
  /** The request target (path and query). */
  target: string;
  /** Whether it carries an `Origin` header: the page's (a cross-origin request), not the handler's S3 calls. */
  fromPage: boolean;
}

export interface StorageProxy {
  /** `http://127.0.0.1:<port>`: what the presigned URLs name. */
  endpoint: string;
  /** The requests whose first bytes arrived at or after `since` (ms since the epoch), in order; forgets older ones. */
  requestsSince(since: number): SocketRequest[];
  close(): Promise<void>;
}

const REQUEST_LINE = /^(GET|PUT|POST|HEAD|DELETE|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/;

/** Starts the proxy to storage at `upstream` (`http://127.0.0.1:<port>`). */
export async function startStorageProxy(upstream: string): Promise<StorageProxy> {
  const { hostname, port } = new URL(upstream);
  let seen: SocketRequest[] = [];
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    const storage = createConnection({ host: hostname, port: Number(port) });
    storage.setNoDelay(true);
    open.add(client).add(storage);
    client.on('data', (chunk: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      const head = chunk.subarray(0, 4096).toString('latin1');
      const line = REQUEST_LINE.exec(head);
      if (line) seen.push({ at, method: line[1]!, target: line[2]!, fromPage: /\r\norigin:/i.test(head.split('\r\n\r\n')[0]!) });
    });
    client.pipe(storage);
    storage.pipe(client);
    const end = () => {
      open.delete(client);
      open.delete(storage);
      client.destroy();
      storage.destroy();
    };
    client.on('error', end);
    storage.on('error', end);
    client.on('close', end);
    storage.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${proxyPort}`,
    requestsSince(since) {
      seen = seen.filter((request) => request.at >= since);
      return [...seen];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Kept-alive connections: the browser holds them open.
        for (const socket of open) socket.destroy();
      }),
  };
}


/**
 * The benchmark's own requests to a preparation server, answered before the variant's handler:
 * `GET /__bench/cpu` gives the process's CPU time so far (`process.cpuUsage()`, microseconds), which divided
 * by the requests answered is the CPU cost of one preparation whatever else the machine runs;
 * `POST /__bench/profile/start` and `/__bench/profile/stop?file=PATH` take a V8 CPU profile of the process
 * (node:inspector) over exactly the load between them, written to PATH (a `.cpuprofile`).
 */
import { writeFile } from 'node:fs/promises';
import type { RequestListener, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';

const PREFIX = '/__bench/';

let session: Session | undefined;

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function control(path: string, query: URLSearchParams): Promise<unknown> {
  if (path === 'cpu') return process.cpuUsage();
  if (path === 'profile/start') {
    session ??= new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs between samples: V8's default is 1 ms, too coarse for requests of a few tens of µs.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    return { started: true };
  }
  if (path === 'profile/stop' && session) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = query.get('file');
    if (file) await writeFile(file, JSON.stringify(profile));
    return { file };
  }
  throw new Error(`unknown bench request ${path}`);
}

/** `listener`, with the benchmark's own requests answered first. */
export function withBenchControl(listener: RequestListener): RequestListener {
  return (request, response) => {
    if (!request.url?.startsWith(PREFIX)) return listener(request, response);
    const url = new URL(request.url, 'http://bench');
    control(url.pathname.slice(PREFIX.length), url.searchParams).then(
      (body) => answer(response, 200, body),
      (error: unknown) => answer(response, 500, { error: String(error) }),
    );
  };
}

/** Mounting next-s3-upload's pages-API route (`APIRoute`) on `node:http`, as Next.js would call it. */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** The whole request body as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A pages-API route on node:http: Next.js parses the JSON body into `req.body` and gives `res` its
 * `status()` and `json()` methods; this does the same, nothing more.
 */
export function nextPagesRoute(route: unknown): RequestListener {
  const handle = route as (req: unknown, res: unknown) => Promise<void>;
  return async (request, response) => {
    (request as IncomingMessage & { body?: unknown }).body = JSON.parse(await readBody(request));
    const res = Object.assign(response, {
      status(code: number) {
        response.statusCode = code;
        return res;
      },
      json(value: unknown) {
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.end(JSON.stringify(value));
      },
    }) as ServerResponse & { status(code: number): unknown; json(value: unknown): void };
    await handle(request, res);
  };
}

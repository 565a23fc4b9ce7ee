/**
 * An answer written to Node's `ServerResponse`: the handler's own JSON answer as it is, or any Fetch
 * `Response`. Part of the node adapter (`../node.ts`).
 */
import type { ServerResponse } from 'node:http';
import type { JsonAnswer } from '../../json-answer';

/**
 * Writes the handler's JSON answer as `Response.json` would send it (status, `content-type:
 * application/json`, the answer's headers, the JSON text with its Content-Length), without a Fetch
 * `Response`: the text goes with `res.end`, in one write with the head (a `Response`'s bytes went as a
 * second buffer, a `writev`). Headers the adapter set before (`connection: close`) are kept.
 */
export function writeAnswer(answer: JsonAnswer, res: ServerResponse, headOnly: boolean): void {
  if (headOnly) {
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end();
    return;
  }
  const text = JSON.stringify(answer.body);
  // `writeHead` makes the head at once: the length must be in it, else the text would go chunked.
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...answer.headers }).end(text);
}

/** Waits until `res` can take more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a Fetch `Response` to `res`: status, headers (each `Set-Cookie` on its own), then the body chunk by
 * chunk, waiting for `drain` whenever `res.write` reports a full buffer. Stops reading the body when the
 * client goes away. A body of one chunk (every JSON answer of the handler) is sent with `res.end(chunk)`:
 * with a Content-Length, in one write, where a write and an end sent it chunked in two; a streamed body's
 * first chunk is therefore sent once the second is read (or the body ends).
 */
export async function writeResponse(response: Response, res: ServerResponse, headOnly: boolean): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);

  if (!response.body || headOnly) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    // The first chunk is held until a second one is read: a body of one chunk goes with `end`.
    let held: Uint8Array | undefined;
    for (let count = 0; ; count++) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      if (count === 0) {
        held = value;
        continue;
      }
      if (held) {
        const more = res.write(held);
        held = undefined;
        if (!more) await drained(res);
      }
      if (!res.write(value)) await drained(res);
    }
    if (held) res.end(held);
    else res.end();
  } finally {
    reader.releaseLock();
  }
}

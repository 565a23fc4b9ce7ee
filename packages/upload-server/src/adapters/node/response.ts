/** A Fetch `Response` written to Node's `ServerResponse`. Part of the node adapter (`../node.ts`). */
import type { ServerResponse } from 'node:http';

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
 * client goes away.
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
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } finally {
    reader.releaseLock();
  }
}

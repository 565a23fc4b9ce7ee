import { describe, expect, it } from 'vitest';
import { fetchIncoming, type IncomingRequest } from './incoming-request';
import { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES, readUploadRequest } from './request-body';

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ filename: 'a.png', filetype: 'image/png', _upload: { strategy: 'presigned' }, ...extra });

function request(text: string, headers: Record<string, string>, asStream = false): IncomingRequest {
  const bytes = new TextEncoder().encode(text);
  const payload = asStream
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      })
    : bytes;
  return fetchIncoming(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
      ...(asStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
}

describe('readUploadRequest: how the body is read', () => {
  it('reads a body with a declared Content-Length whole', async () => {
    const text = body();
    const read = await readUploadRequest(request(text, { 'content-length': String(text.length) }));
    expect(read.filename).toBe('a.png');
  });

  it('checks the length read again: a body longer than its (small) Content-Length and over 16 KiB gets 413', async () => {
    const text = body({ pad: 'x'.repeat(MAX_BODY_BYTES) });
    await expect(readUploadRequest(request(text, { 'content-length': '100' }, true))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('streams a body without Content-Length and refuses one over 16 KiB that is not a multipart complete', async () => {
    expect((await readUploadRequest(request(body(), {}, true))).filetype).toBe('image/png');
    const text = body({ pad: 'x'.repeat(MAX_BODY_BYTES) });
    await expect(readUploadRequest(request(text, {}, true))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  /** A body sent in 4 KiB chunks, counting how many bytes the reader pulled. */
  function chunked(text: string): { request: IncomingRequest; pulled: () => number } {
    const bytes = new TextEncoder().encode(text);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + 4096));
        offset += 4096;
      },
    });
    const request = new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    return { request: fetchIncoming(request), pulled: () => Math.min(offset, bytes.length) };
  }

  const complete = (pad: string) =>
    JSON.stringify({
      filename: 'a.bin',
      filetype: 'application/octet-stream',
      _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: 'T.S', parts: [{ partNumber: 1, etag: 'e' }] } },
      pad,
    });

  it('stops reading a large body at 16 KiB unless its first 16 KiB are admitted: nothing past them is read or parsed', async () => {
    const { request: refused, pulled } = chunked(complete('x'.repeat(MAX_COMPLETE_BODY_BYTES - 1000)));
    await expect(readUploadRequest(refused)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: `Request body is larger than ${MAX_BODY_BYTES} bytes: only a multipart complete with a valid ticket may be larger.` });
    expect(pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 4096);
  });

  it('reads an admitted body whole, a character cut at the 16 KiB boundary included, and shows the admission its first 16 KiB', async () => {
    // "é" is two bytes in UTF-8: padding to an odd length puts one across the boundary.
    const pad = 'é'.repeat(20_000);
    let seen = '';
    const read = await readUploadRequest(chunked(complete(pad)).request, async (head) => {
      seen = head;
      return head.includes('"ticket":"T.S"');
    });
    expect((read as unknown as { pad: string }).pad).toBe(pad);
    expect(new TextEncoder().encode(seen).byteLength).toBeGreaterThan(MAX_BODY_BYTES - 2);
    expect(new TextEncoder().encode(seen).byteLength).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it('refuses an admitted body over 1 MiB (413)', async () => {
    const { request } = chunked(complete('x'.repeat(MAX_COMPLETE_BODY_BYTES)));
    await expect(readUploadRequest(request, async () => true)).rejects.toMatchObject({ message: `Request body is larger than ${MAX_COMPLETE_BODY_BYTES} bytes.` });
  });

  /** A body the adapter read already (the node adapter's `bytes`); `request` is not to be read. */
  function inMemory(text: string): IncomingRequest {
    return {
      method: 'POST',
      header: (name) => (name === 'content-type' ? 'application/json' : null),
      bytes: new TextEncoder().encode(text),
      get request(): Request {
        throw new Error('the body in memory is read, not the request');
      },
    };
  }

  it('reads a body in memory without its Request: whole up to 16 KiB, past them only when admitted, never over 1 MiB', async () => {
    expect((await readUploadRequest(inMemory(body()))).filename).toBe('a.png');
    const pad = 'é'.repeat(20_000);
    const admitted = await readUploadRequest(inMemory(complete(pad)), async (head) => head.includes('"ticket":"T.S"'));
    expect((admitted as unknown as { pad: string }).pad).toBe(pad);
    await expect(readUploadRequest(inMemory(complete(pad)))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('valid ticket') });
    await expect(readUploadRequest(inMemory(complete('x'.repeat(MAX_COMPLETE_BODY_BYTES))), async () => true)).rejects.toMatchObject({
      message: `Request body is larger than ${MAX_COMPLETE_BODY_BYTES} bytes.`,
    });
  });
});

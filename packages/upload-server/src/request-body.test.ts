import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, readUploadRequest } from './request-body';

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ filename: 'a.png', filetype: 'image/png', _upload: { strategy: 'presigned' }, ...extra });

function request(text: string, headers: Record<string, string>, asStream = false): Request {
  const bytes = new TextEncoder().encode(text);
  const payload = asStream
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      })
    : bytes;
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: payload,
    ...(asStream ? { duplex: 'half' } : {}),
  } as RequestInit);
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
});

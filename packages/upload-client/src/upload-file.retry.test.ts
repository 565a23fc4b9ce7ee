import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isExpiredUrlError, presignedUrlExpiry } from './put-object';
import { UploadClientError } from './errors';
import type { RetryEvent } from './retry';
import { uploadFile } from './upload-file';
import type { UploadProgress } from './progress';

// The presigned strategy's retries without a network: `XMLHttpRequest` (the preparation POST and the PUT)
// is scripted. The browser suites prove the same against real storage.

/** What the fake storage does with one PUT. */
type PutScript =
  | { status: number; body?: string; headers?: Record<string, string>; progress?: number[] }
  | { networkError: true; progress?: number[] };

const puts: PutScript[] = [];
const sent: { url: string; headers: Record<string, string> }[] = [];
let prepareAnswers: (() => Response | Promise<Response>)[] = [];
let prepareCalls = 0;
/** The preparation requests' `_upload` markers, in order. */
const markers: Record<string, unknown>[] = [];

class FakeXhr {
  status = 0;
  responseType = '';
  responseText = '';
  response: unknown = null;
  readonly upload = new EventTarget();
  readonly #events = new EventTarget();
  #method = '';
  #url = '';
  #headers: Record<string, string> = {};
  #responseHeaders = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  open(method: string, url: string) {
    this.#method = method;
    this.#url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.#headers[name] = value;
  }
  addEventListener(type: string, listener: EventListener) {
    this.#events.addEventListener(type, listener);
  }
  getAllResponseHeaders() {
    return this.#responseHeaders;
  }
  getResponseHeader(name: string) {
    return new RegExp(`^${name}: (.*)$`, 'im').exec(this.#responseHeaders)?.[1] ?? null;
  }
  send(body: Blob | string) {
    if (this.#method === 'POST') {
      prepareCalls += 1;
      markers.push(JSON.parse(body as string)._upload);
      void Promise.resolve((prepareAnswers.shift() ?? (() => prepared(prepareCalls)))()).then(async (response) => {
        this.#answer(response.status, await response.text(), Object.fromEntries(response.headers));
      });
      return;
    }
    if (typeof body === 'string') throw new Error('a PUT sends the file');
    sent.push({ url: this.#url, headers: this.#headers });
    const script = puts.shift() ?? { status: 200 };
    this.#timer = setTimeout(() => {
      for (const loaded of script.progress ?? [body.size]) {
        this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total: body.size }));
      }
      if ('networkError' in script) {
        this.#events.dispatchEvent(new Event('error'));
        return;
      }
      this.#answer(script.status, script.body ?? '', script.headers ?? {});
    }, 1);
  }
  #answer(status: number, body: string, headers: Record<string, string>) {
    this.status = status;
    this.responseText = body;
    if (this.responseType === 'json') {
      try {
        this.response = JSON.parse(body);
      } catch {
        this.response = null;
      }
    }
    this.#responseHeaders = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    this.#events.dispatchEvent(new Event('load'));
  }
  abort() {
    clearTimeout(this.#timer);
    this.#events.dispatchEvent(new Event('abort'));
  }
}

/** A preparation answer whose URL is valid `expiresIn` seconds from when it arrives. */
const prepared = (n: number, expiresIn = 3600, extra: Record<string, unknown> = {}) =>
  Response.json({
    ...extra,
    key: 'next-s3-uploads/id/a.bin',
    bucket: 'b',
    region: 'us-east-1',
    url: `https://storage.test/b/next-s3-uploads/id/a.bin?X-Amz-Date=20250101T000000Z&X-Amz-Expires=${expiresIn}&X-Amz-Signature=${n}`,
    headers: { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'max-age=630720000' },
  });

const s3Error = (code: string, message: string) => `<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
const file = new File([new Uint8Array(1000)], 'a.bin');

beforeEach(() => {
  puts.length = 0;
  sent.length = 0;
  markers.length = 0;
  prepareCalls = 0;
  prepareAnswers = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // No jitter: retries wait 0 ms unless a Retry-After says otherwise.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function collect() {
  const retries: RetryEvent[] = [];
  const progress: UploadProgress[] = [];
  return {
    retries,
    progress,
    options: { onRetry: (e: RetryEvent) => retries.push(e), onProgress: (p: UploadProgress) => progress.push(p) },
  };
}

describe('uploadFile, presigned: retries', () => {
  it('a PUT answered 503 is sent again and completes; the listener hears of one retry', async () => {
    puts.push({ status: 503, body: s3Error('ServiceUnavailable', 'Please reduce your request rate.') });
    const { retries, options } = collect();
    const result = await uploadFile(file, options);
    expect(result.key).toBe('next-s3-uploads/id/a.bin');
    expect(sent).toHaveLength(2);
    expect(prepareCalls).toBe(1);
    expect(retries).toEqual([{ attempt: 2, delayMs: 0, error: expect.objectContaining({ code: 'STORAGE_ERROR', status: 503 }) }]);
  });

  it('retries a connection lost mid-body and S3 SlowDown, honouring Retry-After', async () => {
    puts.push({ networkError: true, progress: [400] });
    puts.push({ status: 503, body: s3Error('SlowDown', 'Reduce your request rate.'), headers: { 'Retry-After': '0' } });
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(sent).toHaveLength(3);
    expect(prepareCalls).toBe(1); // the URL is still valid: no new one
    expect(retries.map((e) => [e.attempt, (e.error as UploadClientError).code])).toEqual([
      [2, 'NETWORK_ERROR'],
      [3, 'STORAGE_ERROR'],
    ]);
  });

  it('progress falls back to 0 when a PUT fails, and the retry counts up again from byte 0', async () => {
    puts.push({ networkError: true, progress: [300, 600] });
    const { progress, options } = collect();
    await uploadFile(file, options);
    const uploaded = progress.map((p) => p.uploaded);
    // 600 came within 50 ms of 300 (at most 20 reports a second): held, then dropped with the failed PUT.
    expect(uploaded).toEqual([300, 0, 1000]);
    expect(progress.at(-1)).toEqual({ uploaded: 1000, size: 1000, progress: 100 });
  });

  it('gives up after 3 attempts (SPEC 9 default) with the storage error', async () => {
    for (let i = 0; i < 5; i++) puts.push({ status: 500, body: s3Error('InternalError', 'Try again.') });
    const { retries, options } = collect();
    await expect(uploadFile(file, options)).rejects.toMatchObject({ code: 'STORAGE_ERROR', status: 500 });
    expect(sent).toHaveLength(3);
    expect(retries.map((e) => e.attempt)).toEqual([2, 3]);
  });

  it('maxAttempts sets the number of attempts', async () => {
    for (let i = 0; i < 6; i++) puts.push({ status: 503 });
    await expect(uploadFile(file, { maxAttempts: 5 })).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(5);
    sent.length = 0;
    puts.length = 0;
    puts.push({ status: 503 });
    await expect(uploadFile(file, { maxAttempts: 1 })).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(1);
  });

  it('an expired presigned URL is prepared again and the PUT sent to the fresh URL, without waiting', async () => {
    puts.push({ status: 403, body: s3Error('AccessDenied', 'Request has expired') });
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(prepareCalls).toBe(2);
    expect(sent.map((s) => new URL(s.url).searchParams.get('X-Amz-Signature'))).toEqual(['1', '2']);
    expect(retries).toEqual([{ attempt: 2, delayMs: 0, error: expect.objectContaining({ status: 403 }) }]);
  });

  it('no readable answer once the URL is past its expiry (radosgw: a 403 without CORS) is prepared again', async () => {
    prepareAnswers.push(() => prepared(1, 0));
    puts.push({ networkError: true });
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(prepareCalls).toBe(2);
    expect(sent.map((s) => new URL(s.url).searchParams.get('X-Amz-Signature'))).toEqual(['1', '2']);
    expect(retries).toEqual([{ attempt: 2, delayMs: 0, error: expect.objectContaining({ code: 'NETWORK_ERROR' }) }]);
  });

  it('a 403 that is not expiry is final: one PUT, one preparation, no retry', async () => {
    puts.push({ status: 403, body: s3Error('SignatureDoesNotMatch', 'The request signature we calculated does not match.') });
    const { retries, options } = collect();
    await expect(uploadFile(file, options)).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      status: 403,
      message: 'Storage refused the upload (403 SignatureDoesNotMatch): The request signature we calculated does not match.',
    });
    expect(sent).toHaveLength(1);
    expect(prepareCalls).toBe(1);
    expect(retries).toEqual([]);
  });

  it('cancel while a retry waits (Retry-After 30 s) rejects at once with AbortError "Upload aborted."', async () => {
    puts.push({ status: 503, headers: { 'Retry-After': '30' } });
    const controller = new AbortController();
    const { retries, options } = collect();
    const upload = uploadFile(file, { ...options, signal: controller.signal });
    await vi.waitFor(() => expect(retries).toHaveLength(1));
    expect(retries[0]!.delayMs).toBe(20_000); // capped
    const started = performance.now();
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
    expect(performance.now() - started).toBeLessThan(100);
    expect(sent).toHaveLength(1);
  });
});

describe('uploadFile: the preparation POST is retried too', () => {
  it('503 then the answer: one upload', async () => {
    prepareAnswers.push(() => Response.json({ error: 'busy' }, { status: 503, headers: { 'Retry-After': '0' } }));
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(prepareCalls).toBe(2);
    expect(retries).toEqual([{ attempt: 2, delayMs: 0, error: expect.objectContaining({ code: 'PREPARE_FAILED', status: 503 }) }]);
  });

  it('a 4xx refusal is final', async () => {
    prepareAnswers.push(() => Response.json({ error: 'Sign in first.', code: 'UNAUTHORIZED' }, { status: 401 }));
    await expect(uploadFile(file)).rejects.toMatchObject({ code: 'PREPARE_FAILED', status: 401, message: 'Sign in first.' });
    expect(prepareCalls).toBe(1);
  });

  it('500 "Internal Server Error" is retried, then thrown as the endpoint said it (SPEC 7.1)', async () => {
    for (let i = 0; i < 3; i++) prepareAnswers.push(() => Response.json({ error: 'Internal Server Error' }, { status: 500 }));
    await expect(uploadFile(file)).rejects.toMatchObject({ code: 'PREPARE_FAILED', message: 'Internal Server Error' });
    expect(prepareCalls).toBe(3);
    expect(sent).toHaveLength(0);
  });
});

describe('isExpiredUrlError', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const expiresAt = presignedUrlExpiry('https://s/b/k?X-Amz-Date=20250101T000000Z&X-Amz-Expires=60', now);
  const refused = (status: number, code: string | undefined, message: string) =>
    new UploadClientError('STORAGE_ERROR', message, { status, answerCode: code });
  const before = now + 30_000;
  const after = now + 61_000;

  it('counts the lifetime from when the URL arrived (X-Amz-Expires), not from its X-Amz-Date', () => {
    expect(expiresAt).toBe(now + 60_000);
    expect(presignedUrlExpiry('https://s/b/k', now)).toBeNaN();
  });

  it('S3 and s3rver: 403 AccessDenied "Request has expired", whatever this browser\'s clock says', () => {
    const expired = refused(403, 'AccessDenied', 'Storage refused the upload (403 AccessDenied): Request has expired');
    expect(isExpiredUrlError(expired, expiresAt, before)).toBe(true);
    expect(isExpiredUrlError(expired, Number.NaN, before)).toBe(true);
  });

  it('radosgw: 403 AccessDenied without a message, once the URL is past its lifetime', () => {
    const denied = refused(403, 'AccessDenied', 'Storage refused the upload (403 AccessDenied).');
    expect(isExpiredUrlError(denied, expiresAt, after)).toBe(true);
    expect(isExpiredUrlError(denied, expiresAt, before)).toBe(false);
  });

  it('radosgw: no readable answer (its 403 lacks CORS headers) once the URL is past its lifetime', () => {
    const network = new UploadClientError('NETWORK_ERROR', 'no answer');
    expect(isExpiredUrlError(network, expiresAt, after)).toBe(true);
    expect(isExpiredUrlError(network, expiresAt, before)).toBe(false);
    expect(isExpiredUrlError(network, Number.NaN, after)).toBe(false);
  });

  it('any 403 once the URL is past its lifetime: what storage says of an expired URL varies', () => {
    expect(isExpiredUrlError(refused(403, 'SignatureDoesNotMatch', 'does not match'), expiresAt, after)).toBe(true);
  });

  it('other refusals are not expiry', () => {
    expect(isExpiredUrlError(refused(403, 'SignatureDoesNotMatch', 'does not match'), expiresAt, before)).toBe(false);
    expect(isExpiredUrlError(refused(400, 'ExpiredToken', 'expired'), expiresAt, after)).toBe(false);
    expect(isExpiredUrlError(new UploadClientError('PREPARE_FAILED', 'expired', { status: 403 }), expiresAt, after)).toBe(false);
    expect(isExpiredUrlError(new TypeError('expired'), expiresAt, after)).toBe(false);
  });
});

describe('uploadFile, presigned: the checksum the server asks for', () => {
  const contentMd5 = createHash('md5').update(new Uint8Array(1000)).digest('base64');
  const hex = createHash('md5').update(new Uint8Array(1000)).digest('hex');
  const askingChecksum = (n: number) => () => prepared(n, 3600, { checksum: 'md5' });

  it("an answer with checksum: 'md5' and no option: the PUT carries Content-MD5, kept for the fresh URL after expiry", async () => {
    prepareAnswers.push(askingChecksum(1), askingChecksum(2));
    puts.push({ status: 403, body: s3Error('AccessDenied', 'Request has expired') });
    const result = await uploadFile(file);
    expect(prepareCalls).toBe(2);
    expect(sent.map((s) => s.headers['Content-MD5'])).toEqual([contentMd5, contentMd5]);
    expect(result.checksum).toEqual({ algorithm: 'md5', type: 'full-object', value: hex });
  });

  it('checksum: false on the client wins over the answer: no Content-MD5, no checksum in the result', async () => {
    prepareAnswers.push(askingChecksum(1));
    const result = await uploadFile(file, { checksum: false });
    expect(sent[0]!.headers).not.toHaveProperty('Content-MD5');
    expect(result).not.toHaveProperty('checksum');
  });

  it("an answer without the field (an older server) and no option: no checksum; checksum: 'md5' still hashes", async () => {
    expect(await uploadFile(file)).not.toHaveProperty('checksum');
    expect(sent[0]!.headers).not.toHaveProperty('Content-MD5');
    expect((await uploadFile(file, { checksum: 'md5' })).checksum?.value).toBe(hex);
    expect(sent[1]!.headers['Content-MD5']).toBe(contentMd5);
  });
});

describe('uploadFile, presigned: checksums signed into the URL, already stored, If-None-Match', () => {
  const sha256 = createHash('sha256').update(new Uint8Array(1000)).digest();
  const sha256Value = sha256.toString('base64');
  const contentKey = `next-s3-uploads/sha256/${sha256.toString('hex')}.bin`;
  const precondition = { status: 412, body: s3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold') };

  it("a route that wants one answers CHECKSUM_REQUIRED: hashed, asked again with the value; the page's next upload of the route asks with it at once", async () => {
    prepareAnswers.push(
      () => Response.json({ error: 'This route signs a checksum.', code: 'CHECKSUM_REQUIRED', checksum: 'sha256' }, { status: 400 }),
      () => prepared(2, 3600, { checksum: 'sha256' }),
      () => prepared(3, 3600, { checksum: 'sha256' }),
    );
    const first = await uploadFile(file, { route: 'learns' });
    expect(markers.map((marker) => marker['checksum'])).toEqual([undefined, { algorithm: 'sha256', value: sha256Value }]);
    expect(first.checksum).toEqual({ algorithm: 'sha256', type: 'full-object', value: sha256Value });
    // The server signed it into the URL: its answer's headers are sent as they are (this stand-in's lack it: added).
    expect(sent[0]!.headers['x-amz-checksum-sha256']).toBe(sha256Value);
    await uploadFile(file, { route: 'learns' });
    expect(prepareCalls).toBe(3);
    expect(markers[2]!['checksum']).toEqual({ algorithm: 'sha256', value: sha256Value });
  });

  it('alreadyStored: no PUT, progress 100 %, deduplicated, the object address built from the answer', async () => {
    const { progress, options } = collect();
    prepareAnswers.push(() => Response.json({ key: contentKey, bucket: 'b', region: 'us-east-1', checksum: 'sha256', alreadyStored: true }));
    const result = await uploadFile(file, { ...options, route: 'stored', checksum: 'sha256' });
    expect(sent).toEqual([]);
    expect(result).toMatchObject({ key: contentKey, deduplicated: true, url: `https://b.s3.us-east-1.amazonaws.com/${contentKey}` });
    expect(progress.at(-1)).toMatchObject({ progress: 100 });
  });

  it('412 to a PUT retried after an attempt that got no answer: the first attempt stored it', async () => {
    puts.push({ networkError: true }, precondition);
    const result = await uploadFile(file, { route: 'retried' });
    expect(sent).toHaveLength(2);
    expect(result.deduplicated).toBeUndefined();
  });

  it('412 on a content-addressed key: another upload stored the same bytes first (deduplicated)', async () => {
    prepareAnswers.push(async () => Response.json({ ...(await prepared(1).json()), checksum: 'sha256', key: contentKey }));
    puts.push(precondition);
    const result = await uploadFile(file, { route: 'raced', checksum: 'sha256' });
    expect(result).toMatchObject({ key: contentKey, deduplicated: true });
  });

  it('412 otherwise: final, the key holds another object', async () => {
    puts.push(precondition);
    await expect(uploadFile(file, { route: 'taken' })).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      status: 412,
      message: 'An object already exists under this key (storage refuses to overwrite it).',
    });
    expect(sent).toHaveLength(1);
  });

  it('a refused checksum is hashed again and prepared again once; refused again, final', async () => {
    const { retries, options } = collect();
    const badDigest = { status: 400, body: s3Error('BadDigest', 'The CRC32C you specified did not match the calculated checksum.') };
    puts.push(badDigest, badDigest);
    await expect(uploadFile(file, { ...options, route: 'refused', checksum: 'crc32c', maxAttempts: 5 })).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      answerCode: 'BadDigest',
      message: 'The file changed while it was read, or was corrupted on the way: storage refused its checksum.',
    });
    expect(sent).toHaveLength(2);
    expect(prepareCalls).toBe(2);
    expect(retries).toHaveLength(1);
  });
});

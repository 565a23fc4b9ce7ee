import { MAX_SINGLE_PUT_SIZE } from '@upbeam/upload-protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadClientError } from '../errors';
import type { UploadProgress } from '../progress';
import { goesMultipart } from '../multipart-threshold';
import { recoveryOf } from '../recovery';
import type { RetryEvent } from '../retry';
import { uploadFile } from '../upload-file';
import { UploadTracker } from '../upload-tracker';
import { fileBytesSent, formOverheadBound } from './form-progress';
import { policyExpiry, postRefusal } from './post-refusal';
import { POST_TOO_LARGE_MESSAGE } from '@upbeam/upload-protocol';

// The presigned POST's send, retries and progress without a network: `XMLHttpRequest` is a scripted stub (the
// endpoint's JSON and storage's answers to the form). The browser suite (examples/react-vite/test/
// presigned-post.e2e.test.ts) proves the same against radosgw and local-s3 in three engines.

/** What the stub storage does with one form POST. */
type PostScript = { status: number; body?: string; progress?: number[] } | { networkError: true; progress?: number[] } | { hang: true };

/** Bytes of the form around the file in the stub's progress events (the browser's multipart encoding). */
const FORM_OVERHEAD = 1500;

const posts: PostScript[] = [];
/** Each form POST sent: its URL and its fields in order (the file as `<file:size>`). */
const forms: { url: string; fields: [string, string][] }[] = [];
let endpointAnswers: (() => Response)[] = [];
/** The endpoint requests' `_upload` markers, in order. */
const markers: Record<string, unknown>[] = [];

class StubXhr {
  status = 0;
  responseText = '';
  readonly upload = new EventTarget();
  readonly #events = new EventTarget();
  #url = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  open(_method: string, url: string) {
    this.#url = url;
  }
  setRequestHeader() {}
  addEventListener(type: string, listener: EventListener) {
    this.#events.addEventListener(type, listener);
  }
  getAllResponseHeaders() {
    return '';
  }
  send(body: string | FormData) {
    if (typeof body === 'string') {
      markers.push(JSON.parse(body)._upload);
      const response = (endpointAnswers.shift() ?? (() => Response.json(postAnswer(markers.length))))();
      void response.text().then((text) => this.#answer(response.status, text));
      return;
    }
    const fields = [...body.entries()].map(([name, value]): [string, string] => [name, typeof value === 'string' ? value : `<file:${value.size}>`]);
    forms.push({ url: this.#url, fields });
    const size = (body.get('file') as Blob).size;
    const script = posts.shift() ?? { status: 201 };
    if ('hang' in script) return;
    this.#timer = setTimeout(() => {
      for (const loaded of script.progress ?? [size + FORM_OVERHEAD]) {
        this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total: size + FORM_OVERHEAD, lengthComputable: true }));
      }
      if ('networkError' in script) return void this.#events.dispatchEvent(new Event('error'));
      this.#answer(script.status, script.body ?? '');
    }, 1);
  }
  #answer(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.#events.dispatchEvent(new Event('load'));
  }
  abort() {
    clearTimeout(this.#timer);
    this.#events.dispatchEvent(new Event('abort'));
  }
}

const KEY = 'uploads/id/a b.bin';
/** A POST answer, its policy signed now and valid `expiresIn` seconds (by a server clock `skewMs` off). */
function postAnswer(n: number, { expiresIn = 3600, skewMs = 0, extra = {} }: { expiresIn?: number; skewMs?: number; extra?: object } = {}) {
  const signedAt = new Date(Date.now() + skewMs);
  const amzDate = signedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return {
    key: KEY,
    bucket: 'b',
    region: 'us-east-1',
    url: 'https://storage.test/b',
    fields: { key: KEY, 'Content-Type': 'application/octet-stream', 'x-amz-date': amzDate, Policy: `policy-${n}`, 'X-Amz-Signature': `sig-${n}` },
    expiresAt: new Date(signedAt.getTime() + expiresIn * 1000).toISOString(),
    ...extra,
  };
}

const s3Error = (code: string, message: string) => `<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
const SIZE = 10_000;
const file = new File([new Uint8Array(SIZE)], 'a.bin');

beforeEach(() => {
  posts.length = 0;
  forms.length = 0;
  markers.length = 0;
  endpointAnswers = [];
  vi.stubGlobal('XMLHttpRequest', StubXhr);
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
    options: {
      strategy: 'presigned-post' as const,
      onRetry: (event: RetryEvent) => retries.push(event),
      onProgress: (value: UploadProgress) => progress.push(value),
    },
  };
}

describe('presigned POST: honest progress', () => {
  it('counts the file bytes only: the fields before it count nothing, the last byte waits for the answer', () => {
    const none = () => Number.NaN;
    expect(fileBytesSent(1000, SIZE + 1500, SIZE, none)).toBe(0);
    expect(fileBytesSent(1500 + 4000, SIZE + 1500, SIZE, none)).toBe(4000);
    expect(fileBytesSent(SIZE + 1500, SIZE + 1500, SIZE, none)).toBe(SIZE - 1);
    expect(fileBytesSent(50, 50, 0, none)).toBe(0);
  });

  it('without the body size, the bound of the form around the file: never more than was sent of the file', () => {
    const fields = { key: KEY, Policy: 'x'.repeat(900) };
    const bound = formOverheadBound(fields, file);
    expect(bound).toBeGreaterThan(900 + KEY.length);
    expect(fileBytesSent(bound + 10, 0, SIZE, () => bound)).toBe(10);
  });

  it('a POST reports the file bytes as they go, 100 % only on the 201; a failed one falls back to 0', async () => {
    posts.push({ networkError: true, progress: [500, FORM_OVERHEAD + 3000] });
    posts.push({ status: 201, progress: [FORM_OVERHEAD + SIZE] });
    const { progress, options } = collect();
    await uploadFile(file, options);
    const uploaded = progress.map((value) => value.uploaded);
    expect(uploaded[0]).toBe(0);
    expect(uploaded).toContain(0);
    expect(Math.max(...uploaded.slice(0, -1))).toBeLessThan(SIZE);
    expect(progress.at(-1)).toEqual({ uploaded: SIZE, size: SIZE, progress: 100 });
  });
});

describe('presigned POST: storage refusals', () => {
  const expiresAt = Date.now() + 3_600_000;
  const answer = (status: number, body: string) => ({ status, body, headers: '' });

  it('a file outside the signed range fails clearly, not retried, no storage text', () => {
    const large = postRefusal(answer(400, s3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size')), expiresAt);
    expect(large).toMatchObject({ code: 'STORAGE_ERROR', status: 400, answerCode: 'EntityTooLarge' });
    expect(large.message).toBe('The file is larger than this upload allows: storage refused it (400 EntityTooLarge).');
    expect(recoveryOf(large)).toBe('give-up');
    const small = postRefusal(answer(400, s3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size')), expiresAt);
    expect(small.message).toBe('The file is smaller than this upload allows: storage refused it (400 EntityTooSmall).');
    expect(recoveryOf(small)).toBe('give-up');
  });

  it('a policy refusal is final and its message keeps storage quoting the policy out', () => {
    const body = s3Error('AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", "uploads/x"]');
    const error = postRefusal(answer(403, body), expiresAt);
    expect(error.message).toBe('Storage refused the upload (403 AccessDenied).');
    expect(recoveryOf(error)).toBe('give-up');
  });

  it('an expired policy (said so, or past its expiry: radosgw says AccessDenied only) is prepared again; a 5xx retried', () => {
    expect(recoveryOf(postRefusal(answer(403, s3Error('AccessDenied', 'Invalid according to Policy: Policy expired.')), expiresAt))).toBe('sign-again');
    expect(recoveryOf(postRefusal(answer(403, s3Error('AccessDenied', '')), Date.now() - 1))).toBe('sign-again');
    expect(recoveryOf(postRefusal(answer(503, s3Error('SlowDown', 'Reduce your request rate.')), expiresAt))).toBe('retry');
  });

  it('the policy expiry counts its lifetime from arrival (a server clock 2 hours ahead)', () => {
    const now = Date.now();
    const expiry = policyExpiry(postAnswer(1, { skewMs: 2 * 3_600_000 }), now);
    expect(Math.abs(expiry - (now + 3_600_000))).toBeLessThan(1000);
  });
});

describe('uploadFile, strategy presigned-post', () => {
  it('prepares as presigned-post, POSTs the fields in order then the file to the bucket URL, and returns the object URL', async () => {
    const { options } = collect();
    const result = await uploadFile(file, options);
    expect(markers).toEqual([{ strategy: 'presigned-post' }]);
    expect(forms).toHaveLength(1);
    expect(forms[0]!.url).toBe('https://storage.test/b');
    expect(forms[0]!.fields.map(([name]) => name)).toEqual(['key', 'Content-Type', 'x-amz-date', 'Policy', 'X-Amz-Signature', 'file']);
    expect(forms[0]!.fields.at(-1)).toEqual(['file', `<file:${SIZE}>`]);
    expect(result).toEqual({ url: 'https://storage.test/b/uploads/id/a%20b.bin', bucket: 'b', key: KEY });
  });

  it('multipartThreshold is not read: a file above it goes in one POST', async () => {
    const { options } = collect();
    await uploadFile(file, { ...options, multipartThreshold: 1 });
    expect(markers).toEqual([{ strategy: 'presigned-post' }]);
    expect(forms).toHaveLength(1);
  });

  it('a tracked file of presigned-post is never multipart (no pause), whatever its size', () => {
    expect(goesMultipart(200 * 1024 * 1024, { strategy: 'presigned-post' })).toBe(false);
    expect(goesMultipart(200 * 1024 * 1024, { strategy: 'presigned' })).toBe(true);
    expect(goesMultipart(200 * 1024 * 1024, {})).toBe(true);
  });

  it('a file over 5 GiB is refused before any request, naming the strategies that can send it', async () => {
    const huge = { name: 'huge.bin', type: '', size: MAX_SINGLE_PUT_SIZE + 1 } as File;
    const { options } = collect();
    await expect(uploadFile(huge, options)).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: POST_TOO_LARGE_MESSAGE });
    expect(POST_TOO_LARGE_MESSAGE).toMatch(/presigned or temporary-token strategy/);
    expect(markers).toEqual([]);
    expect(forms).toEqual([]);
  });

  it('a 503 and a lost connection are sent again with the same policy; the third attempt stores it', async () => {
    posts.push({ status: 503, body: s3Error('ServiceUnavailable', 'busy') }, { networkError: true });
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(markers).toHaveLength(1);
    expect(forms.map((form) => Object.fromEntries(form.fields).Policy)).toEqual(['policy-1', 'policy-1', 'policy-1']);
    expect(retries.map((event) => (event.error as UploadClientError).code)).toEqual(['STORAGE_ERROR', 'NETWORK_ERROR']);
  });

  it('an expired policy is prepared again at once and the form sent with the fresh one', async () => {
    posts.push({ status: 403, body: s3Error('AccessDenied', 'Invalid according to Policy: Policy expired.') });
    const { retries, options } = collect();
    await uploadFile(file, options);
    expect(markers).toHaveLength(2);
    expect(forms.map((form) => Object.fromEntries(form.fields).Policy)).toEqual(['policy-1', 'policy-2']);
    expect(retries).toEqual([{ attempt: 2, delayMs: 0, error: expect.objectContaining({ status: 403 }) }]);
  });

  it('EntityTooLarge fails at once: one POST, the clear message', async () => {
    posts.push({ status: 400, body: s3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size') });
    const { retries, options } = collect();
    await expect(uploadFile(file, options)).rejects.toMatchObject({ code: 'STORAGE_ERROR', status: 400, answerCode: 'EntityTooLarge' });
    expect(forms).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('cancel mid-POST rejects with AbortError and the progress falls back to 0', async () => {
    posts.push({ hang: true });
    const controller = new AbortController();
    const { progress, options } = collect();
    const upload = uploadFile(file, { ...options, signal: controller.signal });
    await vi.waitFor(() => expect(forms).toHaveLength(1));
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
    expect(progress.at(-1)?.uploaded ?? 0).toBe(0);
  });

  it('with a receipt, reports completion as a presigned PUT does and returns serverData', async () => {
    endpointAnswers.push(
      () => Response.json(postAnswer(1, { extra: { receipt: 'r-1' } })),
      () => Response.json({ key: KEY, size: SIZE, serverData: { id: 7 } }),
    );
    const { options } = collect();
    const result = await uploadFile(file, options);
    expect(markers).toEqual([{ strategy: 'presigned-post' }, { strategy: 'presigned-post', complete: { key: KEY, receipt: 'r-1' } }]);
    expect(result.serverData).toEqual({ id: 7 });
  });
});

describe('UploadTracker, strategy presigned-post', () => {
  it('a file above multipartThreshold is tracked as one POST (not multipart) and ends done with the stored key', async () => {
    const tracker = new UploadTracker({ strategy: 'presigned-post', multipartThreshold: 1 });
    const [added] = tracker.add([file]);
    expect(added).toMatchObject({ multipart: false, status: 'queued' });
    await vi.waitFor(() => expect(tracker.getSnapshot()[0]).toMatchObject({ status: 'done', progress: 100 }));
    expect(markers).toEqual([{ strategy: 'presigned-post' }]);
    expect(forms).toHaveLength(1);
  });
});

describe('presigned POST: checksums', () => {
  it('the route wants one: hashed, asked again with its value; the result has it only when the form carries it', async () => {
    endpointAnswers.push(
      () => Response.json({ error: 'This route wants a checksum.', code: 'CHECKSUM_REQUIRED', checksum: 'crc32c' }, { status: 400 }),
      () => Response.json(postAnswer(1, { extra: { checksum: 'crc32c' } })),
    );
    const { options } = collect();
    const result = await uploadFile(file, { ...options, route: 'hashed' });
    expect(markers[0]).toEqual({ strategy: 'presigned-post' });
    expect(markers[1]).toMatchObject({ strategy: 'presigned-post', checksum: { algorithm: 'crc32c', value: expect.any(String) } });
    expect(result.checksum).toMatchObject({ algorithm: 'crc32c' });
  });

  it('MD5 asked: the server leaves it out of a POST (no field), so the result claims none', async () => {
    const { options } = collect();
    const result = await uploadFile(file, { ...options, checksum: 'md5' });
    expect(markers[0]).toMatchObject({ checksum: { algorithm: 'md5' } });
    expect(result.checksum).toBeUndefined();
  });
});

describe('uploadFile, presigned: an answer with fields is a POST', () => {
  it('the form is POSTed (no PUT) and completion is reported as presigned', async () => {
    endpointAnswers.push(
      () => Response.json(postAnswer(1, { extra: { receipt: 'r-2' } })),
      () => Response.json({ key: KEY, size: SIZE, serverData: 'ok' }),
    );
    const result = await uploadFile(file, {});
    expect(forms).toHaveLength(1);
    expect(markers).toEqual([{ strategy: 'presigned' }, { strategy: 'presigned', complete: { key: KEY, receipt: 'r-2' } }]);
    expect(result).toMatchObject({ url: 'https://storage.test/b/uploads/id/a%20b.bin', serverData: 'ok' });
  });
});

import type { CompletedPart } from '@upbeam/upload-protocol';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { isAbortError } from './abort';
import type { MultipartBackend, SignedPartRequest } from './multipart-backend';
import { MultipartParts } from './multipart-parts';
import { MultipartUpload, type MultipartStarter } from './multipart-upload';
import { PauseController } from './pause';
import { resolveMultipartSettings, type MultipartSettings } from './part-math';
import { throttledProgress } from './progress';
import type { UploadContext, UploadOptions } from './types';

// The part engine and the run around it without a network: `XMLHttpRequest` is scripted per part, the
// backend (what the endpoint or the token session would do) is a stand-in that records its calls. The
// browser suites (examples/react-vite/test/multipart*.e2e.test.ts) prove the same against real storage.

const MiB = 1024 * 1024;
const SIZE = 12 * MiB + 5; // parts 1, 2 of 5 MiB, part 3 of 2 MiB + 5

/** What storage does with one part PUT: answer, or lose the connection, or never answer (until aborted). */
type PartScript = { status: number; etag?: string | null; retryAfter?: string; body?: string } | 'network-error' | 'hang';

let scripts: Map<number, PartScript[]>;
let sent: { partNumber: number; bytes: number; url: string; headers: Record<string, string> }[];
/** What happened, in order: `send N` (a part's PUT), and what a test adds. */
let events: string[];
let inFlight: number;
let mostInFlight: number;

class FakeXhr {
  status = 0;
  responseText = '';
  readonly upload = new EventTarget();
  readonly #events = new EventTarget();
  #url = '';
  #headers = '';
  #requestHeaders: Record<string, string> = {};
  #settled = false;
  open(_method: string, url: string) {
    this.#url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.#requestHeaders[name] = value;
  }
  addEventListener(type: string, listener: EventListener) {
    this.#events.addEventListener(type, listener);
  }
  getAllResponseHeaders() {
    return this.#headers;
  }
  abort() {
    this.#finish('abort');
  }
  send(body: Blob) {
    const partNumber = Number(new URL(this.#url).searchParams.get('partNumber'));
    sent.push({ partNumber, bytes: body.size, url: this.#url, headers: this.#requestHeaders });
    events.push(`send ${partNumber}`);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const script = scripts.get(partNumber)?.shift() ?? { status: 200 };
    if (script === 'hang') return;
    setTimeout(() => {
      if (this.#settled) return;
      if (script === 'network-error') {
        // Half the body went out before the connection dropped.
        const half = new Event('progress') as Event & { loaded: number };
        half.loaded = Math.floor(body.size / 2);
        this.upload.dispatchEvent(half);
        return this.#finish('error');
      }
      const progress = new Event('progress') as Event & { loaded: number };
      progress.loaded = body.size;
      this.upload.dispatchEvent(progress);
      this.status = script.status;
      this.responseText = script.body ?? '';
      const etag = script.etag === undefined ? `"etag-${partNumber}"` : script.etag;
      this.#headers = [etag && `etag: ${etag}`, script.retryAfter && `retry-after: ${script.retryAfter}`].filter(Boolean).join('\r\n');
      this.#finish('load');
    }, 5);
  }
  #finish(type: string) {
    if (this.#settled) return;
    this.#settled = true;
    inFlight -= 1;
    this.#events.dispatchEvent(new Event(type));
  }
}

/** A backend stand-in: signs `https://storage.test/key?partNumber=N&sig=K`, records complete and abort. */
function fakeBackend(expiresIn = 3_600_000) {
  const calls = { signed: [] as number[][], completed: [] as CompletedPart[][], aborted: 0 };
  let signature = 0;
  const backend: MultipartBackend = {
    signBatchSize: 100,
    async signParts(partNumbers) {
      calls.signed.push(partNumbers);
      events.push(`sign ${partNumbers.join(',')}`);
      signature += 1;
      return partNumbers.map<SignedPartRequest>((partNumber) => ({
        partNumber,
        url: `https://storage.test/key?partNumber=${partNumber}&sig=${signature}`,
        headers: {},
        expiresAt: Date.now() + expiresIn,
      }));
    },
    async complete(parts) {
      calls.completed.push(parts);
    },
    async abort() {
      calls.aborted += 1;
    },
  };
  return { backend, calls };
}

function starter(backend: MultipartBackend): MultipartStarter {
  return {
    strategy: 'presigned',
    create: async (partSize) => ({ backend, record: { bucket: 'b', key: 'key', uploadId: 'u1', partSize, ticket: 't', parts: [] } }),
    reopen: async () => undefined,
  };
}

function context(options: UploadOptions, seen: number[] = []): UploadContext {
  const file = new File([new Uint8Array(SIZE)], 'big.bin');
  return {
    file,
    filetype: 'application/octet-stream',
    options: { maxAttempts: 3, ...options },
    report: throttledProgress(file.size, (p) => seen.push(p.uploaded)),
  };
}

/** One multipart upload from start to end, by its owner. */
const runMultipart = (upload: UploadContext, settings: MultipartSettings, starter: MultipartStarter) => new MultipartUpload(upload, settings, starter).start();

const settings = (options: UploadOptions = {}) => resolveMultipartSettings(SIZE, { multipartThreshold: 0, ...options });

beforeEach(() => {
  scripts = new Map();
  sent = [];
  events = [];
  inFlight = 0;
  mostInFlight = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => vi.unstubAllGlobals());

describe('runMultipart with the part engine', () => {
  it('sends each part once as a Blob slice, queueSize at once, and completes with the ETags in order', async () => {
    const { backend, calls } = fakeBackend();
    const seen: number[] = [];
    await runMultipart(context({}, seen), settings({ queueSize: 2 }), starter(backend));
    expect(sent.map((s) => [s.partNumber, s.bytes]).sort()).toEqual([
      [1, 5 * MiB],
      [2, 5 * MiB],
      [3, 2 * MiB + 5],
    ]);
    expect(mostInFlight).toBe(2);
    expect(calls.signed).toEqual([[1, 2, 3]]);
    expect(calls.completed).toEqual([[1, 2, 3].map((n) => ({ partNumber: n, etag: `"etag-${n}"` }))]);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(calls.aborted).toBe(0);
  });

  it("checksum 'md5': each part sent carries its Content-MD5, BadDigest is sent again, the result is the composite of all parts", async () => {
    const { backend } = fakeBackend();
    // Part 1 is on storage already (a reopened upload); part 2 is refused once as changed on the way.
    const reopened: MultipartStarter = {
      strategy: 'presigned',
      create: async (partSize) => ({
        backend,
        record: { bucket: 'b', key: 'key', uploadId: 'u1', partSize, ticket: 't', parts: [{ partNumber: 1, etag: '"etag-1"', size: 5 * MiB }] },
      }),
      reopen: async () => undefined,
    };
    const bytes = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7) % 253);
    const upload = { ...context({ checksum: 'md5' }), file: new File([bytes], 'big.bin') };
    scripts.set(2, [{ status: 400, etag: null, body: '<Error><Code>BadDigest</Code></Error>' }]);
    const { checksum } = await runMultipart(upload, settings(), reopened);

    const md5 = (part: Uint8Array) => createHash('md5').update(part).digest();
    const parts = [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB, 10 * MiB), bytes.subarray(10 * MiB)];
    expect(sent.map((s) => s.partNumber).sort()).toEqual([2, 2, 3]);
    for (const { partNumber, headers } of sent) expect(headers['Content-MD5']).toBe(md5(parts[partNumber - 1]!).toString('base64'));
    const composite = md5(Buffer.concat(parts.map(md5))).toString('hex');
    expect(checksum).toEqual({ algorithm: 'md5', type: 'composite', value: `${composite}-3` });
  });

  it("no option: the checksum the upload was created with (record.checksum 'md5'); checksum: false asks for none but cannot undo it", async () => {
    const { backend } = fakeBackend();
    const asking: MultipartStarter = {
      ...starter(backend),
      create: async (partSize) => ({ backend, record: { bucket: 'b', key: 'key', uploadId: 'u1', partSize, ticket: 't', parts: [], checksum: 'md5' } }),
    };
    const { checksum } = await runMultipart(context({}), settings(), asking);
    expect(sent).toHaveLength(3);
    expect(sent.every((s) => s.headers['Content-MD5'] !== undefined)).toBe(true);
    expect(checksum).toMatchObject({ algorithm: 'md5', type: 'composite' });
    sent = [];
    // Created with one (the route's), each part must carry it: its URL is signed with it.
    const created = await runMultipart(context({ checksum: false }), settings(), asking);
    expect(sent.every((s) => s.headers['Content-MD5'] !== undefined)).toBe(true);
    expect(created.checksum).toMatchObject({ algorithm: 'md5', type: 'composite' });
  });

  it('without checksum: no Content-MD5, no checksum in the result', async () => {
    const { backend } = fakeBackend();
    const { checksum } = await runMultipart(context({}), settings(), starter(backend));
    expect(sent.every((s) => s.headers['Content-MD5'] === undefined)).toBe(true);
    expect(checksum).toBeUndefined();
  });

  it('retries a failed part on its own (Retry-After honoured), the others are sent once', async () => {
    const { backend, calls } = fakeBackend();
    scripts.set(2, [{ status: 503, etag: null, retryAfter: '0', body: '<Error><Code>SlowDown</Code></Error>' }, 'network-error']);
    const retries: unknown[] = [];
    await runMultipart(context({ onRetry: (event) => retries.push(event.error) }), settings(), starter(backend));
    expect(sent.map((s) => s.partNumber).sort()).toEqual([1, 2, 2, 2, 3]);
    expect(retries).toEqual([
      expect.objectContaining({ code: 'STORAGE_ERROR', status: 503, answerCode: 'SlowDown' }),
      expect.objectContaining({ code: 'NETWORK_ERROR' }),
    ]);
    expect(calls.completed).toHaveLength(1);
  });

  it("sends the parts signed with the upload's creation without signing them again", async () => {
    const { backend, calls } = fakeBackend();
    const signedWithCreate = [1, 2].map<SignedPartRequest>((partNumber) => ({
      partNumber,
      url: `https://storage.test/key?partNumber=${partNumber}&sig=create`,
      headers: {},
      expiresAt: Date.now() + 3_600_000,
    }));
    const created: MultipartStarter = {
      strategy: 'presigned',
      create: async (partSize) => ({
        backend,
        record: { url: 'https://storage.test/key', bucket: 'b', key: 'key', uploadId: 'u1', partSize, ticket: 't', parts: [] },
        signed: signedWithCreate,
      }),
      reopen: async () => undefined,
    };
    const { record } = await runMultipart(context({}), settings({ queueSize: 2 }), created);
    expect(sent.filter((s) => s.url.endsWith('sig=create')).map((s) => s.partNumber).sort()).toEqual([1, 2]);
    // Only the part the creation did not sign is signed, in one batch.
    expect(calls.signed).toEqual([[3]]);
    expect(record.url).toBe('https://storage.test/key');
    expect(calls.completed).toEqual([[1, 2, 3].map((n) => ({ partNumber: n, etag: `"etag-${n}"` }))]);
  });

  it('signs a part again when storage refuses its expired URL, at once', async () => {
    const { backend, calls } = fakeBackend(-1);
    await runMultipart(context({ queueSize: 1 }), settings({ queueSize: 1 }), starter(backend));
    // Every signature is already past its expiry: each part is signed again before it is sent.
    expect(calls.signed.length).toBeGreaterThan(1);
    expect(calls.completed).toHaveLength(1);
  });

  it('fails with MISSING_ETAG and the CORS hint when no attempt can read the ETag, and aborts the upload', async () => {
    const { backend, calls } = fakeBackend();
    scripts.set(1, [{ status: 200, etag: null }, { status: 200, etag: null }, { status: 200, etag: null }]);
    const failure = runMultipart(context({ queueSize: 1 }), settings({ queueSize: 1 }), starter(backend));
    await expect(failure).rejects.toMatchObject({
      code: 'MISSING_ETAG',
      message: expect.stringMatching(/^Part 1 is missing ETag .*CORS ExposeHeaders/),
    });
    expect(calls.aborted).toBe(1);
    expect(calls.completed).toEqual([]);
  });

  it('with resume, a failure keeps the upload on storage (not aborted)', async () => {
    const { backend, calls } = fakeBackend();
    scripts.set(3, ['network-error', 'network-error', 'network-error']);
    const failure = runMultipart(context({ resume: true }), settings({ resume: true }), starter(backend));
    await expect(failure).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(calls.aborted).toBe(0);
  });

  it('progress falls back to the stored parts when a part fails for good, and to 0 once the upload is aborted', async () => {
    // Backoffs of 250 and 500 ms: each retry's progress comes after the 50 ms between reports.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    onTestFinished(() => random.mockRestore());
    const kept: number[] = [];
    scripts.set(3, ['network-error', 'network-error', 'network-error']);
    await expect(runMultipart(context({ resume: true }, kept), settings({ resume: true, queueSize: 1 }), starter(fakeBackend().backend))).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
    });
    // Parts 1 and 2 stored (10 MiB); half of part 3 in flight each attempt, then gone: the last report is what
    // storage keeps.
    expect(kept).toContain(10 * MiB + Math.floor((SIZE - 10 * MiB) / 2));
    expect(kept.at(-1)).toBe(10 * MiB);
    expect(Math.max(...kept)).toBeLessThanOrEqual(SIZE);

    const aborted: number[] = [];
    scripts.set(3, ['network-error', 'network-error', 'network-error']);
    await expect(runMultipart(context({}, aborted), settings({ queueSize: 1 }), starter(fakeBackend().backend))).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
    });
    expect(aborted.at(-1)).toBe(0);
  });

  it('cancel stops the parts in flight at once, aborts the upload on storage, then rejects with AbortError', async () => {
    const { backend, calls } = fakeBackend();
    for (const n of [1, 2, 3]) scripts.set(n, ['hang']);
    const controller = new AbortController();
    const done = runMultipart(context({ signal: controller.signal }), settings(), starter(backend));
    await vi.waitFor(() => expect(inFlight).toBe(3));
    controller.abort();
    const error = await done.catch((thrown: unknown) => thrown);
    expect(isAbortError(error)).toBe(true);
    expect((error as Error).message).toBe('Upload aborted.');
    expect(inFlight).toBe(0);
    expect(calls.aborted).toBe(1);
  });

  it('cancel while CreateMultipartUpload is in flight: the upload it creates is aborted, no part is sent', async () => {
    const { backend, calls } = fakeBackend();
    const controller = new AbortController();
    let answerCreate: (() => void) | undefined;
    const slowStarter: MultipartStarter = {
      ...starter(backend),
      create: (partSize) => new Promise((resolve) => (answerCreate = () => resolve(starter(backend).create(partSize)))),
    };
    const done = runMultipart(context({ signal: controller.signal }), settings(), slowStarter);
    await vi.waitFor(() => expect(answerCreate).toBeDefined());
    controller.abort();
    answerCreate!();
    const error = await done.catch((thrown: unknown) => thrown);
    expect(isAbortError(error)).toBe(true);
    expect(sent).toEqual([]);
    expect(calls.aborted).toBe(1);
  });

  it('pause stops the parts in flight and sends nothing until resume; then the missing parts go', async () => {
    const { backend, calls } = fakeBackend();
    scripts.set(3, ['hang']);
    const pause = new PauseController();
    const done = runMultipart(context({ pauseController: pause, queueSize: 3 }), settings({ queueSize: 3 }), starter(backend));
    await vi.waitFor(() => expect(sent.filter((s) => s.partNumber !== 3)).toHaveLength(2));
    await vi.waitFor(() => expect(inFlight).toBe(1));
    pause.pause();
    expect(inFlight).toBe(0);
    const sentWhilePaused = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toHaveLength(sentWhilePaused);
    pause.resume();
    await done;
    expect(sent.map((s) => s.partNumber).sort()).toEqual([1, 2, 3, 3]);
    expect(calls.completed).toHaveLength(1);
    expect(calls.aborted).toBe(0);
  });

  it("sends the next part in the stored part's answer task; the stored part's progress and journal entry come after it", async () => {
    const { backend } = fakeBackend();
    const file = new File([new Uint8Array(SIZE)], 'big.bin');
    const engine = new MultipartParts({
      file,
      partSize: 5 * MiB,
      queueSize: 1,
      completed: [],
      backend,
      retry: { maxAttempts: 1 },
      onProgress: (uploaded) => events.push(`progress ${uploaded / MiB}`),
      onPartStored: ({ partNumber }) => events.push(`stored ${partNumber}`),
    });
    await engine.send(new AbortController());
    const stored = events.filter((event) => !event.startsWith('progress ') && !event.startsWith('sign '));
    expect(stored).toEqual(['send 1', 'send 2', 'stored 1', 'send 3', 'stored 2', 'stored 3']);
    // Progress never goes back while parts are stored: a stored part counts in flight until it is settled.
    const progress = events.filter((event) => event.startsWith('progress ')).map((event) => Number(event.split(' ')[1]));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(SIZE / MiB);
  });

  it('signs the next batch of part URLs when half of the current one is used, before a sender needs it', async () => {
    const { backend, calls } = fakeBackend();
    const batched = { ...backend, signBatchSize: 4 };
    const upload = { ...context({ queueSize: 1 }), file: new File([new Uint8Array(8 * 5 * MiB)], 'eight-parts.bin') };
    await runMultipart(upload, resolveMultipartSettings(8 * 5 * MiB, { multipartThreshold: 0, queueSize: 1 }), starter(batched));
    expect(calls.signed).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    // Part 3 is the first with fewer than half a batch (2) signed after it: the next batch is asked for as
    // it is taken, two parts before a sender needs it.
    expect(events.slice(0, 6)).toEqual(['sign 1,2,3,4', 'send 1', 'send 2', 'sign 5,6,7,8', 'send 3', 'send 4']);
    expect(calls.completed).toHaveLength(1);
  });

  it('a backend that signs one part at a time (the token session) signs each sender\'s next part while its current one is sent', async () => {
    const { backend, calls } = fakeBackend();
    const local = { ...backend, signBatchSize: 1 };
    const upload = { ...context({ queueSize: 2 }), file: new File([new Uint8Array(6 * 5 * MiB)], 'six-parts.bin') };
    await runMultipart(upload, resolveMultipartSettings(6 * 5 * MiB, { multipartThreshold: 0, queueSize: 2 }), starter(local));
    expect(calls.signed).toEqual([[1], [2], [3], [4], [5], [6]]);
    // Parts 3 and 4 are signed while parts 1 and 2 are signed and sent; part 5 when part 3 is taken.
    expect(events.slice(0, 6)).toEqual(['sign 1', 'sign 2', 'sign 3', 'sign 4', 'send 1', 'send 2']);
    expect(events.indexOf('sign 5')).toBeLessThan(events.indexOf('send 3'));
  });

  it("with checksum 'md5' a backend that signs one part at a time signs each part when it is sent (its Content-MD5 with it)", async () => {
    const { backend } = fakeBackend();
    const signedHeaders: Record<string, string>[] = [];
    const local: MultipartBackend = {
      ...backend,
      signBatchSize: 1,
      signParts: (partNumbers, signal, headers = {}) => {
        signedHeaders.push(...partNumbers.map((n) => headers[n] ?? {}));
        return backend.signParts(partNumbers, signal, headers);
      },
    };
    const upload = { ...context({ queueSize: 2, checksum: 'md5' }), file: new File([new Uint8Array(4 * 5 * MiB)], 'four-parts.bin') };
    await runMultipart(upload, resolveMultipartSettings(4 * 5 * MiB, { multipartThreshold: 0, queueSize: 2 }), starter(local));
    expect(signedHeaders).toHaveLength(4);
    for (const headers of signedHeaders) expect(headers['Content-MD5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

// @vitest-environment jsdom
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadErrorBody } from '@upbeam/upload-protocol';
import { isUploadClientError, type UploadClientError } from './errors';
import { limitRefusal, MAX_LIMIT_WAIT_MS } from './limit-refusal';
import { nextStep } from './recovery';
import type { RetryEvent } from './retry';
import { uploadFile } from './upload-file';
import { UploadTracker } from './upload-tracker';

// A preparation refused by the endpoint's quotas and rate limits, through jsdom's real XMLHttpRequest against
// a real node:http server on 127.0.0.1 (another origin than the page: CORS as a browser does it). The server
// is a stand-in of the upload handler's refusals (the handler's own limits are tested in upload-server): it
// answers each preparation with what the test scripts, else a presigned URL to itself, and counts the
// preparations and the PUTs it receives.

/** One scripted answer to a preparation: the refusal's status, body and Retry-After. */
interface Refusal {
  status: number;
  body: UploadErrorBody;
  retryAfter?: number;
}

const rateLimited = (seconds: number): Refusal => ({
  status: 429,
  retryAfter: seconds,
  body: {
    error: `Too many uploads started: at most 2 per minute. Try again in ${seconds} seconds.`,
    code: 'RATE_LIMITED',
    limit: 'preparations',
    retryAfter: seconds,
  },
});
const filesQuota: Refusal = {
  status: 429,
  retryAfter: 10_800,
  body: { error: 'Upload quota reached: at most 1,000 files per day. Try again in 3 hours.', code: 'QUOTA_EXCEEDED', limit: 'files', retryAfter: 10_800 },
};
const unavailable: Refusal = {
  status: 503,
  body: { error: 'Upload limits cannot be checked right now. Try again later.', code: 'LIMITS_UNAVAILABLE' },
};

let server: Server;
let origin: string;
/** Answers of the next preparations, in order; `undefined` (or none left): granted. */
let script: (Refusal | undefined)[] = [];
/** Each preparation the server received: the file's name, when it came, and whether it was refused. */
let preparations: { filename: string; at: number; refused: boolean }[] = [];
let puts = 0;
/** With a number: the stand-in counts uploads in flight (granted, PUT not yet answered) and refuses past it. */
let maxInFlight: number | undefined;
let inFlight = 0;
const inFlightFull: Refusal = {
  status: 429,
  retryAfter: 7200,
  body: { error: 'Too many uploads at once: at most 2 in flight. Try again when one ends.', code: 'QUOTA_EXCEEDED', limit: 'inFlight', retryAfter: 7200 },
};

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const cors = { 'access-control-allow-origin': '*' };
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST, PUT', 'access-control-allow-headers': '*' }).end();
    return;
  }
  if (request.method === 'PUT') {
    puts += 1;
    // Long enough that files started together overlap.
    setTimeout(() => {
      inFlight -= 1;
      response.writeHead(200, { ...cors, etag: '"x"' }).end();
    }, 300);
    return;
  }
  const { filename } = JSON.parse(body) as { filename: string };
  const refusal = script.shift() ?? (maxInFlight !== undefined && inFlight >= maxInFlight ? inFlightFull : undefined);
  if (!refusal) inFlight += 1;
  preparations.push({ filename, at: Date.now(), refused: refusal !== undefined });
  if (refusal) {
    // Retry-After is not exposed to the page (no Access-Control-Expose-Headers): the body's `retryAfter` says it.
    const headers = { ...cors, 'content-type': 'application/json', ...(refusal.retryAfter ? { 'retry-after': String(refusal.retryAfter) } : {}) };
    response.writeHead(refusal.status, headers).end(JSON.stringify(refusal.body));
    return;
  }
  const key = `uploads/${encodeURIComponent(filename)}`;
  response
    .writeHead(200, { ...cors, 'content-type': 'application/json' })
    .end(JSON.stringify({ url: `${origin}/bucket/${key}`, key, bucket: 'bucket', region: 'us-east-1' }));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => answer(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  script = [];
  preparations = [];
  puts = 0;
  maxInFlight = undefined;
  inFlight = 0;
});

const file = (name: string) => new File(['hello'], name, { type: 'text/plain' });
const endpoint = () => ({ url: `${origin}/api/upload` });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('the upload succeeded'), (error: unknown) => error as UploadClientError);

describe('uploadFile: a preparation refused by a limit', () => {
  it('a quota of files fails at once: typed, the server\'s words, one request, nothing sent to storage', async () => {
    script = [filesQuota];
    const error = await failure(uploadFile(file('a.txt'), { endpoint: endpoint() }));
    expect(isUploadClientError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'PREPARE_FAILED',
      status: 429,
      answerCode: 'QUOTA_EXCEEDED',
      limit: 'files',
      retryAfter: '10800',
      message: 'Upload quota reached: at most 1,000 files per day. Try again in 3 hours.',
    });
    expect(preparations).toHaveLength(1);
    expect(puts).toBe(0);
  });

  it('a rate limit that frees within the cap is waited for (its Retry-After), then asked again, within the retry budget', async () => {
    script = [rateLimited(1)];
    const retries: RetryEvent[] = [];
    const result = await uploadFile(file('b.txt'), { endpoint: endpoint(), onRetry: (event) => retries.push(event) });
    expect(result.key).toBe('uploads/b.txt');
    expect(retries.map(({ attempt, delayMs }) => ({ attempt, delayMs }))).toEqual([{ attempt: 2, delayMs: 1000 }]);
    expect(preparations.map(({ refused }) => refused)).toEqual([true, false]);
    // Asked again no sooner than the server said.
    expect(preparations[1]!.at - preparations[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(puts).toBe(1);

    script = [rateLimited(1), rateLimited(1)];
    preparations = [];
    const spent = await failure(uploadFile(file('c.txt'), { endpoint: endpoint(), maxAttempts: 2 }));
    expect(spent).toMatchObject({ answerCode: 'RATE_LIMITED', limit: 'preparations' });
    expect(preparations).toHaveLength(2);
  });

  it('a rate limit that frees past the cap (60 s) fails at once, with the server\'s words', async () => {
    script = [rateLimited(3600)];
    const error = await failure(uploadFile(file('d.txt'), { endpoint: endpoint(), maxAttempts: 5 }));
    expect(error).toMatchObject({ status: 429, answerCode: 'RATE_LIMITED', retryAfter: '3600' });
    expect(error.message).toBe('Too many uploads started: at most 2 per minute. Try again in 3600 seconds.');
    expect(preparations).toHaveLength(1);
  });

  it('limits that cannot be checked (503 LIMITS_UNAVAILABLE) are retried with the backoff, like any 503', async () => {
    script = [unavailable, unavailable];
    const error = await failure(uploadFile(file('e.txt'), { endpoint: endpoint(), maxAttempts: 2 }));
    expect(error).toMatchObject({ code: 'PREPARE_FAILED', status: 503, answerCode: 'LIMITS_UNAVAILABLE' });
    expect(error.message).toBe('Upload limits cannot be checked right now. Try again later.');
    expect(preparations).toHaveLength(2);
    expect(puts).toBe(0);
  });
});

describe('UploadTracker: files refused together do not each ask again', () => {
  it('a rate limit holds the queue: no file starts before its Retry-After', async () => {
    // a is refused for 2 s; b, started beside it, is granted and ends, freeing its place: c waits for the hold.
    script = [rateLimited(2)];
    const tracker = new UploadTracker({ endpoint: endpoint(), concurrency: 2 });
    const results = await Promise.all(['a', 'b', 'c'].map((name) => tracker.upload(file(name))));
    expect(results.map(({ key }) => key)).toEqual(['uploads/a', 'uploads/b', 'uploads/c']);
    const asked = (name: string) => preparations.filter(({ filename }) => filename === name);
    expect(preparations).toHaveLength(4);
    const refusedAt = asked('a')[0]!.at;
    // a asked again, and c first, no sooner than the server said (b had asked beside a).
    expect(asked('a')[1]!.at - refusedAt).toBeGreaterThanOrEqual(2000);
    expect(asked('c')).toHaveLength(1);
    expect(asked('c')[0]!.at - refusedAt).toBeGreaterThanOrEqual(2000);
  });

  it('a quota of files fails the route\'s queued files with the same words, without asking', async () => {
    script = Array.from({ length: 10 }, () => filesQuota);
    const tracker = new UploadTracker({ endpoint: endpoint(), concurrency: 2 });
    const files = tracker.add(Array.from({ length: 10 }, (_, i) => file(`f${i}`)));
    await expect.poll(() => tracker.getSnapshot().every(({ status }) => status === 'error'), { timeout: 10_000 }).toBe(true);
    // The two files started at once asked; the eight queued behind them never did.
    expect(preparations.length).toBe(2);
    expect(puts).toBe(0);
    for (const { id } of files) {
      expect(tracker.getFile(id)!.error).toMatchObject({ answerCode: 'QUOTA_EXCEEDED', limit: 'files', message: filesQuota.body.error });
    }
  });
});

describe('UploadTracker: the uploads in flight full', () => {
  it('a file refused while files of the tracker run waits for one of them to end, and the tracker runs no more at once', async () => {
    maxInFlight = 2;
    const tracker = new UploadTracker({ endpoint: endpoint(), concurrency: 3 });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => tracker.upload(file(name))));
    expect(results).toHaveLength(5);
    // The third file of the first three was refused once; from then on two at a time, none refused.
    expect(preparations.filter(({ refused }) => refused)).toHaveLength(1);
    expect(preparations).toHaveLength(6);
    expect(puts).toBe(5);
  });

  it('a file refused while none of the tracker runs fails at once: nothing here frees a place', async () => {
    maxInFlight = 0;
    const tracker = new UploadTracker({ endpoint: endpoint() });
    const error = await failure(tracker.upload(file('alone')));
    expect(error).toMatchObject({ answerCode: 'QUOTA_EXCEEDED', limit: 'inFlight', message: inFlightFull.body.error });
    expect(preparations).toHaveLength(1);
  });
});

describe('limitRefusal and nextStep', () => {
  const refusal = (answerCode: string, limit: UploadErrorBody['limit'], retryAfter?: string) =>
    Object.assign(new Error('refused'), { name: 'UploadClientError', code: 'PREPARE_FAILED', status: 429, answerCode, limit, retryAfter });

  it('waits a rate limit or the uploads in flight, gives up on other quotas and on waits past the cap', () => {
    expect(limitRefusal(refusal('RATE_LIMITED', 'preparations', '42'))).toEqual({ waitMs: 42_000 });
    expect(limitRefusal(refusal('QUOTA_EXCEEDED', 'inFlight', '5'))).toEqual({ waitMs: 5000 });
    expect(limitRefusal(refusal('QUOTA_EXCEEDED', 'inFlight', String(MAX_LIMIT_WAIT_MS / 1000 + 1)))).toBe('give-up');
    expect(limitRefusal(refusal('QUOTA_EXCEEDED', 'bytes', '1'))).toBe('give-up');
    expect(limitRefusal(refusal('LIMITS_UNAVAILABLE', undefined))).toBeUndefined();
    // The whole Retry-After, past the 20 s that caps a storage answer's.
    expect(nextStep(refusal('RATE_LIMITED', 'preparations', '42'), 1)).toEqual({ recovery: 'retry', delayMs: 42_000, signAgain: false });
    expect(nextStep(refusal('QUOTA_EXCEEDED', 'files', '1'), 1)).toBeUndefined();
  });
});

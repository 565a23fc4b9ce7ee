import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadClientError } from './errors';
import {
  backoffDelay,
  DEFAULT_MAX_ATTEMPTS,
  isRetryableAnswer,
  MAX_RETRY_DELAY_MS,
  parseRetryAfter,
  resolveRetrySettings,
  retryDelay,
  waitForRetry,
  type RetryEvent,
} from './retry';
import { withRecovery } from './recovery';
import { withRetries } from './send-loop';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const storageError = (status: number, code?: string, retryAfter?: string) =>
  new UploadClientError('STORAGE_ERROR', `Storage refused the upload (${status}).`, { status, answerCode: code, retryAfter });
const networkError = () => new UploadClientError('NETWORK_ERROR', 'no answer');

describe('resolveRetrySettings', () => {
  it('defaults to 3 attempts (SPEC 9)', () => {
    expect(DEFAULT_MAX_ATTEMPTS).toBe(3);
    expect(resolveRetrySettings({}).maxAttempts).toBe(3);
    expect(resolveRetrySettings({ maxAttempts: 1 }).maxAttempts).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxAttempts %s before any network call', (maxAttempts) => {
    expect(() => resolveRetrySettings({ maxAttempts })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: `maxAttempts must be an integer of at least 1. Got ${maxAttempts}.` }),
    );
  });
});

describe('backoffDelay (exponential, full jitter)', () => {
  it('waits a random time below 500 ms, 1 s, 2 s ... for retries 1, 2, 3', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, () => 0.999999))).toEqual([499, 999, 1999, 3999]);
    expect(backoffDelay(1, () => 0)).toBe(0);
    expect(backoffDelay(2, () => 0.5)).toBe(500);
  });

  it('never waits 20 s or more', () => {
    expect(backoffDelay(50, () => 0.999999)).toBe(MAX_RETRY_DELAY_MS - 1);
  });

  it('spreads retries: 1000 draws of retry 2 cover [0, 1000) evenly', () => {
    const draws = Array.from({ length: 1000 }, () => backoffDelay(2));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1000);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(400);
    expect(mean).toBeLessThan(600);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('reads seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date; a date in the past means now', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('caps the wait at 20 s', () => {
    expect(parseRetryAfter('120', now)).toBe(20_000);
    expect(parseRetryAfter('Mon, 02 Jun 2025 12:00:00 GMT', now)).toBe(20_000);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, null, '', 'soon', '-5', '3s']) expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('isRetryableAnswer', () => {
  it('retries 408, 429 and the transient 5xx; not other 4xx, 501 or 505', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableAnswer(status), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 412, 413, 501, 505]) expect(isRetryableAnswer(status), String(status)).toBe(false);
  });

  it('retries S3 SlowDown, RequestTimeout, InternalError whatever the status', () => {
    expect(isRetryableAnswer(503, 'SlowDown')).toBe(true);
    expect(isRetryableAnswer(400, 'RequestTimeout')).toBe(true);
    expect(isRetryableAnswer(200, 'InternalError')).toBe(true);
    // A body whose bytes changed on the way (BadDigest): hashed again first, once (recovery.ts), not a plain retry.
    expect(isRetryableAnswer(400, 'BadDigest')).toBe(false);
    expect(isRetryableAnswer(403, 'AccessDenied')).toBe(false);
  });
});

describe('retryDelay', () => {
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
  });

  it('retries network errors and retryable answers after the backoff', () => {
    expect(retryDelay(networkError(), 1)).toBe(250);
    expect(retryDelay(storageError(503), 2)).toBe(500);
    expect(retryDelay(storageError(503, 'SlowDown'), 1)).toBe(250);
    expect(retryDelay(new UploadClientError('PREPARE_FAILED', 'Internal Server Error', { status: 500 }), 1)).toBe(250);
  });

  it('honours Retry-After instead of the backoff, capped', () => {
    expect(retryDelay(storageError(503, undefined, '2'), 1)).toBe(2000);
    expect(retryDelay(storageError(429, undefined, '0'), 1)).toBe(0);
    expect(retryDelay(storageError(503, 'SlowDown', '3600'), 1)).toBe(20_000);
  });

  it('retries a part answer without a readable ETag (a proxy can lose a header once)', () => {
    expect(retryDelay(new UploadClientError('MISSING_ETAG', 'no ETag'), 1)).toBeTypeOf('number');
  });

  it('does not retry what cannot succeed: 4xx refusals, bad options, cancel, foreign errors', () => {
    expect(retryDelay(storageError(403, 'AccessDenied'), 1)).toBeUndefined();
    expect(retryDelay(storageError(403, 'SignatureDoesNotMatch', '1'), 1)).toBeUndefined();
    expect(retryDelay(new UploadClientError('PREPARE_FAILED', 'Forbidden', { status: 403 }), 1)).toBeUndefined();
    expect(retryDelay(new UploadClientError('INVALID_PREPARE_RESPONSE', 'bad', { status: 200 }), 1)).toBeUndefined();
    expect(retryDelay(new DOMException('Upload aborted.', 'AbortError'), 1)).toBeUndefined();
    expect(retryDelay(new TypeError('x is not a function'), 1)).toBeUndefined();
  });
});

describe('waitForRetry', () => {
  it('resolves after the delay', async () => {
    vi.useFakeTimers();
    let done = false;
    const wait = waitForRetry(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(done).toBe(true);
  });

  it('ends at once with AbortError "Upload aborted." when cancelled during the wait', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const wait = waitForRetry(20_000, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await expect(wait).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('rejects at once when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(waitForRetry(5000, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('withRetries', () => {
  const settings = (maxAttempts = 3) => {
    const events: RetryEvent[] = [];
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter: retries wait 0 ms
    return { events, settings: resolveRetrySettings({ maxAttempts, onRetry: (e) => events.push(e) }) };
  };

  it('sends the first attempt at once, in the task of the call, before anything the caller starts next', async () => {
    const { settings: s } = settings();
    const attempt = vi.fn().mockResolvedValue('answered');
    const run = withRetries(attempt, s);
    // An endpoint request goes out before the chunks `uploadFile` loads beside it (upload-file.ts).
    expect(attempt).toHaveBeenCalledTimes(1);
    await expect(run).resolves.toBe('answered');
  });

  it('retries a retryable failure and tells the listener: attempt number, wait, error', async () => {
    const { events, settings: s } = settings();
    const failure = storageError(503);
    const attempt = vi.fn().mockRejectedValueOnce(failure).mockResolvedValueOnce('stored');
    await expect(withRetries(attempt, s)).resolves.toBe('stored');
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(events).toEqual([{ attempt: 2, delayMs: 0, error: failure }]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const { events, settings: s } = settings(3);
    const errors = [storageError(500), storageError(502), storageError(503)];
    const attempt = vi.fn(async () => {
      throw errors[attempt.mock.calls.length - 1];
    });
    await expect(withRetries(attempt, s)).rejects.toBe(errors[2]);
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(events.map((e) => e.attempt)).toEqual([2, 3]);
  });

  it('does not retry a refusal that cannot succeed', async () => {
    const { events, settings: s } = settings();
    const attempt = vi.fn().mockRejectedValue(storageError(403, 'AccessDenied'));
    await expect(withRetries(attempt, s)).rejects.toMatchObject({ status: 403 });
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(events).toEqual([]);
  });

  it('maxAttempts 1 never retries', async () => {
    const { settings: s } = settings(1);
    const attempt = vi.fn().mockRejectedValue(networkError());
    await expect(withRetries(attempt, s)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('follows the recovery the error carries (e.g. a fresh signature at once after an expired URL)', async () => {
    const { events, settings: s } = settings();
    vi.mocked(Math.random).mockReturnValue(0.99); // a backoff would wait; a fresh signature does not
    const expired = withRecovery(storageError(403), 'sign-again');
    const attempt = vi.fn().mockRejectedValueOnce(expired).mockResolvedValueOnce('ok');
    await expect(withRetries(attempt, s)).resolves.toBe('ok');
    expect(events).toEqual([{ attempt: 2, delayMs: 0, error: expired }]);
  });

  it('a cancel during the wait rejects at once with AbortError, and no attempt follows', async () => {
    const controller = new AbortController();
    const { settings: s } = settings();
    const attempt = vi.fn().mockRejectedValue(storageError(503, undefined, '30'));
    const started = performance.now();
    const run = withRetries(attempt, { ...s, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});

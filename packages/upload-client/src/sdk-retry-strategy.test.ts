import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRetrySettings, type RetryEvent } from './retry';
import { createRetryStrategy, sdkRetryDelay } from './sdk-retry-strategy';

// The multipart engine's requests go through the AWS SDK: its retry strategy must follow the same policy
// as the presigned PUT. The browser suites run it against real storage through a fault-injecting proxy.

/** An S3 service error as the SDK throws it: the S3 code as `name`, the status in `$metadata`. */
const answered = (status: number, name: string) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const unanswered = (name: string) => Object.assign(new Error(name), { name });
type ErrorInfo = Parameters<typeof sdkRetryDelay>[0];
const info = (error: Error, retryAfterHint?: Date): ErrorInfo => ({
  errorType: 'TRANSIENT',
  error: error as ErrorInfo['error'],
  retryAfterHint,
});
const half = () => 0.5;

describe('sdkRetryDelay', () => {
  it('retries 5xx, 429, SlowDown, a lost connection and a part answer without ETag', () => {
    expect(sdkRetryDelay(info(answered(503, 'SlowDown')), 1, half)).toBe(250);
    expect(sdkRetryDelay(info(answered(500, 'InternalError')), 2, half)).toBe(500);
    expect(sdkRetryDelay(info(answered(429, 'TooManyRequests')), 1, half)).toBe(250);
    expect(sdkRetryDelay(info(unanswered('NetworkError')), 1, half)).toBe(250);
    expect(sdkRetryDelay(info(unanswered('MissingETag')), 1, half)).toBe(250);
    expect(sdkRetryDelay(info(unanswered('TimeoutError')), 1, half)).toBe(250);
  });

  it('honours the Retry-After the SDK read, capped at 20 s', () => {
    const now = Date.now();
    expect(sdkRetryDelay(info(answered(503, 'SlowDown'), new Date(now + 3000)), 1, half, now)).toBe(3000);
    expect(sdkRetryDelay(info(answered(503, 'SlowDown'), new Date(now + 600_000)), 1, half, now)).toBe(20_000);
  });

  it('does not retry refusals, cancels or unknown failures', () => {
    expect(sdkRetryDelay(info(answered(403, 'AccessDenied')), 1, half)).toBeUndefined();
    expect(sdkRetryDelay(info(answered(400, 'EntityTooSmall')), 1, half)).toBeUndefined();
    expect(sdkRetryDelay(info(answered(404, 'NoSuchUpload')), 1, half)).toBeUndefined();
    expect(sdkRetryDelay(info(unanswered('AbortError')), 1, half)).toBeUndefined();
    expect(sdkRetryDelay(info(new TypeError('x is undefined')), 1, half)).toBeUndefined();
  });
});

describe('createRetryStrategy', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const make = (maxAttempts = 3, signal?: AbortSignal) => {
    const events: RetryEvent[] = [];
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter: retries wait 0 ms
    const settings = resolveRetrySettings({ maxAttempts, onRetry: (e) => events.push(e) });
    return { events, strategy: createRetryStrategy(settings, signal) };
  };

  it('gives maxAttempts attempts and tells the listener, with the error as an UploadClientError', async () => {
    const { events, strategy } = make(3);
    const first = await strategy.acquireInitialRetryToken('');
    const second = await strategy.refreshRetryTokenForRetry(first, info(answered(503, 'SlowDown')));
    expect(second.getRetryCount()).toBe(1);
    expect(second.getRetryDelay()).toBe(0); // the strategy waited itself
    const third = await strategy.refreshRetryTokenForRetry(second, info(unanswered('NetworkError')));
    expect(third.getRetryCount()).toBe(2);
    await expect(strategy.refreshRetryTokenForRetry(third, info(answered(503, 'SlowDown')))).rejects.toMatchObject({
      name: 'SlowDown',
    });
    expect(events.map((e) => [e.attempt, e.delayMs, (e.error as { code?: string }).code])).toEqual([
      [2, 0, 'STORAGE_ERROR'],
      [3, 0, 'NETWORK_ERROR'],
    ]);
  });

  it('refuses a retry of what cannot succeed', async () => {
    const { events, strategy } = make();
    const first = await strategy.acquireInitialRetryToken('');
    await expect(strategy.refreshRetryTokenForRetry(first, info(answered(403, 'AccessDenied')))).rejects.toMatchObject({
      name: 'AccessDenied',
    });
    expect(events).toEqual([]);
  });

  it('a cancel ends the wait at once, and nothing is retried after it', async () => {
    const controller = new AbortController();
    const { strategy } = make(3, controller.signal);
    const first = await strategy.acquireInitialRetryToken('');
    const started = performance.now();
    const waiting = strategy.refreshRetryTokenForRetry(first, info(answered(503, 'SlowDown'), new Date(Date.now() + 30_000)));
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(strategy.refreshRetryTokenForRetry(first, info(unanswered('NetworkError')))).rejects.toMatchObject({
      name: 'NetworkError',
    });
  });
});

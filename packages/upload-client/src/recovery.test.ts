import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAbortError } from './abort';
import { UploadClientError } from './errors';
import { isChecksumRefusal } from './checksum-refusal';
import { attemptWatch, nextStep, recoveryOf, withRecovery } from './recovery';

afterEach(() => vi.restoreAllMocks());

const refused = (status: number, answerCode?: string, retryAfter?: string) =>
  new UploadClientError('STORAGE_ERROR', `Storage refused the upload (${status}).`, { status, answerCode, retryAfter });

describe('nextStep: one case per recovery', () => {
  it('retry: a failure another attempt may cure waits the backoff, or the answer\'s Retry-After', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(nextStep(new UploadClientError('NETWORK_ERROR', 'No answer.'), 2)).toEqual({ recovery: 'retry', delayMs: 500, signAgain: false });
    expect(nextStep(refused(503, 'SlowDown', '3'), 1)).toEqual({ recovery: 'retry', delayMs: 3000, signAgain: false });
  });

  it('sign-again: an expired signature is signed anew and sent at once', () => {
    expect(nextStep(withRecovery(refused(403, 'AccessDenied'), 'sign-again'), 1)).toEqual({ recovery: 'sign-again', delayMs: 0, signAgain: true });
  });

  it('renew-credentials: expired temporary credentials are renewed, then the request signed again at once', () => {
    const error = withRecovery(refused(400, 'ExpiredToken'), 'renew-credentials');
    expect(nextStep(error, 1)).toEqual({ recovery: 'renew-credentials', delayMs: 0, signAgain: true });
  });

  it('correct-clock: a refused date is signed again at once, by the corrected clock', () => {
    const error = withRecovery(refused(403, 'RequestTimeTooSkewed'), 'correct-clock');
    expect(nextStep(error, 1)).toEqual({ recovery: 'correct-clock', delayMs: 0, signAgain: true });
  });

  it('already-done: an earlier unanswered attempt did the work; nothing to wait for or sign', () => {
    const error = withRecovery(refused(404, 'NoSuchUpload'), 'already-done');
    expect(nextStep(error, 2)).toEqual({ recovery: 'already-done', delayMs: 0, signAgain: false });
  });

  it('give-up: a refusal no attempt cures, a bad option, a cancel, or what the reader marked final', () => {
    expect(nextStep(refused(403, 'AccessDenied'), 1)).toBeUndefined();
    expect(nextStep(new UploadClientError('INVALID_OPTIONS', 'queueSize must be...'), 1)).toBeUndefined();
    expect(nextStep(createAbortError(), 1)).toBeUndefined();
    expect(nextStep(withRecovery(refused(503), 'give-up'), 1)).toBeUndefined();
  });
});

describe('recoveryOf', () => {
  it('is what the reader marked, else read from the error', () => {
    expect(recoveryOf(refused(500))).toBe('retry');
    expect(recoveryOf(new UploadClientError('MISSING_ETAG', 'no ETag'))).toBe('retry');
    // A refused checksum is the send loop's to hash again, for a body sent with one (isChecksumRefusal, below).
    expect(recoveryOf(refused(400, 'BadDigest'))).toBe('give-up');
    expect(isChecksumRefusal(refused(400, 'BadDigest'))).toBe(true);
    expect(isChecksumRefusal(refused(400, 'XAmzContentChecksumMismatch'))).toBe(true);
    const invalid = (message: string) => new UploadClientError('STORAGE_ERROR', message, { status: 400, answerCode: 'InvalidRequest' });
    expect(isChecksumRefusal(invalid('Storage refused the upload (400 InvalidRequest): Value for x-amz-checksum-crc32c header is invalid.'))).toBe(true);
    expect(isChecksumRefusal(invalid('Storage refused the upload (400 InvalidRequest): Missing required header'))).toBe(false);
    expect(recoveryOf(invalid('Storage refused the upload (400 InvalidRequest): Missing required header'))).toBe('give-up');
    expect(recoveryOf(refused(404))).toBe('give-up');
    expect(recoveryOf(withRecovery(refused(404), 'sign-again'))).toBe('sign-again');
    expect(recoveryOf(undefined)).toBe('give-up');
  });
});

describe('attemptWatch: the one rule of a lost answer (a 412 to If-None-Match: *, a complete\'s no such upload)', () => {
  const lost = { attempt: 2, delayMs: 0, error: new UploadClientError('NETWORK_ERROR', 'No answer.') };
  const exists = refused(412, 'PreconditionFailed');
  const noSuchUpload = refused(404, 'NoSuchUpload');

  it('a 412 after an attempt that got no answer counts as stored (already-done); a 412 otherwise is final', () => {
    const retried = attemptWatch(true);
    retried.onRetry({ attempt: 2, delayMs: 100, error: refused(503) });
    expect(() => retried.settle(exists)).toThrow('An object already exists under this key (storage refuses to overwrite it).');
    retried.onRetry(lost);
    expect(() => retried.settle(exists)).not.toThrow();
    expect(recoveryOf(exists)).toBe('already-done');
    const first = refused(412, 'PreconditionFailed');
    expect(() => attemptWatch(true).settle(first)).toThrow(expect.objectContaining({ code: 'STORAGE_ERROR', status: 412, cause: first }));
  });

  it('without If-None-Match a 412 is thrown as it came; other errors always are', () => {
    const watch = attemptWatch(false);
    watch.onRetry(lost);
    const other = refused(412);
    expect(() => watch.settle(other)).toThrow(other);
    const denied = refused(403, 'AccessDenied');
    expect(() => attemptWatch(true).settle(denied)).toThrow(denied);
  });

  it('a complete: no such upload after an attempt that got no answer is done; before one, thrown as it came', () => {
    const watch = attemptWatch(false, (error) => error === noSuchUpload);
    expect(() => watch.settle(noSuchUpload)).toThrow(noSuchUpload);
    watch.onRetry(lost);
    expect(() => watch.settle(noSuchUpload)).not.toThrow();
  });
});

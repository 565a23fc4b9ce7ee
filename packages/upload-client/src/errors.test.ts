import { describe, expect, it } from 'vitest';
import { createAbortError, isAbortError } from './abort';
import { isUploadClientError, UploadClientError } from './errors';

describe('errors', () => {
  it('cancel is a DOMException named AbortError with the SPEC 8 message', () => {
    const error = createAbortError();
    expect(error).toBeInstanceOf(DOMException);
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe('Upload aborted.');
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new Error('Upload aborted.'))).toBe(false);
  });

  it('UploadClientError carries code, status and cause, and is recognised by name across copies', () => {
    const cause = new TypeError('Failed to fetch');
    const error = new UploadClientError('PREPARE_FAILED', 'Internal Server Error', { status: 500, cause });
    expect(error).toMatchObject({ name: 'UploadClientError', code: 'PREPARE_FAILED', status: 500, cause });
    const copy = Object.assign(new Error('x'), { name: 'UploadClientError' });
    expect(isUploadClientError(copy)).toBe(true);
    expect(isUploadClientError(new Error('x'))).toBe(false);
  });
});

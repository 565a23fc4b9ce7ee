/**
 * Storage's refusal of a body for its checksum, for the send loop of a request sent with one
 * (`LoopRequest.checksums`): hashed and sent again once, then final. Imported only where bodies are hashed (the
 * single PUT's checksum flow, the part engine, the temporary-token strategy), all loaded with `import()`: a page
 * whose uploads send no checksum does not download it.
 */
import { CHECKSUM_REFUSED_MESSAGE, isUploadClientError, type UploadClientError } from './errors';
import { finalRefusal } from './recovery';

/** S3 codes of a refused checksum; `InvalidRequest` only when its message names a checksum. */
const CHECKSUM_CODES = ['BadDigest', 'InvalidDigest', 'XAmzContentChecksumMismatch'];

/**
 * Whether storage refused a body for its checksum: S3 `BadDigest` (Content-MD5 or `x-amz-checksum-*` differs
 * from the bytes received), `InvalidDigest`, `XAmzContentChecksumMismatch`, or `InvalidRequest` about a checksum.
 */
export function isChecksumRefusal(error: unknown): error is UploadClientError {
  if (!isUploadClientError(error) || error.code !== 'STORAGE_ERROR') return false;
  const code = error.answerCode ?? '';
  return CHECKSUM_CODES.includes(code) || (code === 'InvalidRequest' && /checksum/i.test(error.message));
}

/** The final error of a body whose checksum storage refused again: {@link CHECKSUM_REFUSED_MESSAGE}, `cause` the refusal. */
export const checksumRefusedError = (error: UploadClientError): UploadClientError => finalRefusal(error, CHECKSUM_REFUSED_MESSAGE, error);

/** What the send loop reads of a refused checksum. */
export interface ChecksumRefusals {
  /** Whether `error` is storage's refusal of the body's checksum ({@link isChecksumRefusal}). */
  refused(error: unknown): error is UploadClientError;
  /** The final error once it was hashed and sent again ({@link checksumRefusedError}). */
  final(error: UploadClientError): UploadClientError;
}

/** {@link isChecksumRefusal} and {@link checksumRefusedError}, for `LoopRequest.checksums`. */
export const CHECKSUM_REFUSALS: ChecksumRefusals = { refused: isChecksumRefusal, final: checksumRefusedError };

/**
 * @module
 * The temporary-token strategy's storage requests, signed in the browser: loaded with `import()` on the
 * strategy's first use, so that an app that uses only presigned URLs never downloads the signer. About a
 * tenth of the AWS SDK chunk it replaces (bench/notes/signing.md).
 */
export { createTokenSession, MAX_SIGNATURE_AGE_MS } from './create-token-session';
export { CLOCK_SKEW_THRESHOLD_MS } from './clock';
export { REFRESH_WINDOW_MS } from './credentials';
export { storageAnswerOf } from '../../s3-answer';
export type {
  SendStorageRequest,
  SignedRequest,
  StorageAnswer,
  StorageRequest,
  TokenSession,
  TokenSessionOptions,
} from './token-session';

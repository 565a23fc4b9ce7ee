/**
 * @module
 * The temporary-token strategy's storage requests, signed in the browser: loaded with `import()` on the
 * strategy's first use, so that an app that uses only presigned URLs never downloads the signer.
 *
 * Measured 2026-11-23 (esbuild --bundle --minify, ESM, browser, gzip -9): 10,033 B with the engine modules
 * it shares with the initial chunk (errors, retry, XHR, object URL: 1,884 B of it), against 113-118 KB
 * for the AWS SDK chunk it replaces; the SDK's SigV4 signer alone is ~5.7 KB.
 */
export { createTokenSession, MAX_SIGNATURE_AGE_MS, TOKEN_CACHE_CONTROL } from './create-token-session';
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

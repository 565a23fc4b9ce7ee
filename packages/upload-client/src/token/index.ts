/**
 * @module
 * The temporary-token strategy's storage requests, signed in the browser: loaded with `import()` on the
 * strategy's first use, so that an app that uses only presigned URLs never downloads the signer.
 */
export { createTokenSession, MAX_SIGNATURE_AGE_MS, TOKEN_CACHE_CONTROL } from './create-token-session';
export { CLOCK_SKEW_THRESHOLD_MS } from './clock';
export { REFRESH_WINDOW_MS } from './credentials';
export type {
  SendStorageRequest,
  SignedRequest,
  StorageAnswer,
  StorageRequest,
  TokenSession,
  TokenSessionOptions,
} from './token-session';

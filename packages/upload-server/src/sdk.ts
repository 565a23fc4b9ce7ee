/**
 * The AWS SDK, imported on first use rather than with the package: importing `@upbeam/upload-server` (or
 * `/node`, `/next`) loads none of it; a presigned PUT to an address known from the settings loads only the
 * SDK's SHA-256 (`sigv4-query.ts`), and the presigner and `@aws-sdk/client-s3` only when the bucket's
 * address needs the SDK's endpoint rules (presign.ts); only a temporary token loads
 * `@aws-sdk/client-sts`. A serverless cold start then pays for what its first request needs
 * (bench/RESULTS.md, "Cold start"). Each module is imported once; later calls get it at once.
 */

/** Keeps the first call's promise; a failed import is tried again on the next call. */
function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** `@aws-sdk/client-s3`: the storage client and its commands. */
export const loadS3 = lazily(() => import('@aws-sdk/client-s3'));

/** `@aws-sdk/client-sts`: temporary credentials (the temporary-token strategy only). */
export const loadSts = lazily(() => import('@aws-sdk/client-sts'));

/** `@aws-sdk/s3-request-presigner`: signs presigned URLs. */
export const loadPresigner = lazily(() => import('@aws-sdk/s3-request-presigner'));

/** The SDK's SHA-256 and HMAC-SHA256 (`sigv4-query.ts`): `node:crypto` on Node, WebCrypto or JavaScript elsewhere. */
export const loadSha256 = lazily(async () => (await import('@smithy/core/checksum')).Sha256);

/** The SDK's own MD5 (pure JavaScript: no `node:crypto`, so that workers need no Node.js compatibility). */
export const loadMd5 = lazily(async () => (await import('@smithy/core/checksum')).Md5);

/**
 * The SDK defaults that its Node.js build would otherwise look up in `AWS_*` variables and `~/.aws` files
 * for every client (retries, FIPS and dual-stack endpoints, the app id of the user agent, ...), given here
 * with the SDK's own default values. The handler's clients take their settings from the handler's config
 * and `S3_UPLOAD_*` alone, and on Deno they need no permission to read the home folder or other variables:
 * the lookup of the home folder failed outside a request there (an unhandled rejection: the process died).
 */
export const CLIENT_DEFAULTS = {
  defaultsMode: 'legacy' as const,
  maxAttempts: 3,
  retryMode: 'standard',
  useFipsEndpoint: false,
  useDualstackEndpoint: false,
  disableClockSkewCorrection: false,
  authSchemePreference: async (): Promise<string[]> => [],
  userAgentAppId: async (): Promise<string | undefined> => undefined,
};

/** {@link CLIENT_DEFAULTS}, and those of the S3 client alone. */
export const S3_CLIENT_DEFAULTS = {
  ...CLIENT_DEFAULTS,
  useArnRegion: false,
  disableS3ExpressSessionAuth: false,
  sigv4aSigningRegionSet: async (): Promise<string[] | undefined> => undefined,
};

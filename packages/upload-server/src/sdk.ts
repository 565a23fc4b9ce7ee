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

/** SHA-256 and HMAC-SHA256 as `sigv4-query.ts` uses them: `new Sha256(key?)`, `update(bytes)`, `digest()`. */
export interface Sha256Hash {
  update(data: Uint8Array): void;
  digest(): Promise<Uint8Array>;
}
export type Sha256Constructor = new (secret?: string | Uint8Array) => Sha256Hash;

/**
 * `true` in the build for Workers and edge runtimes (`define` in tsup.config.ts), where `node:crypto` is not
 * asked for: Next.js's edge runtime has a `process.getBuiltinModule` that throws. Undeclared elsewhere.
 */
declare const UPBEAM_WORKER_BUILD: boolean;

/** The `node:crypto` the runtime has built in (Node >= 20.16, Bun, Deno), got without an import; else undefined. */
function builtinCrypto(): typeof import('node:crypto') | undefined {
  if (typeof UPBEAM_WORKER_BUILD !== 'undefined' && UPBEAM_WORKER_BUILD) return undefined;
  try {
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    return getBuiltinModule?.('node:crypto') as typeof import('node:crypto') | undefined;
  } catch {
    return undefined;
  }
}

/**
 * SHA-256 and HMAC-SHA256 for `sigv4-query.ts`: `node:crypto` where the runtime has it built in (no module
 * to load: cold start), else the SDK's portable `Sha256` (WebCrypto or JavaScript: workers without Node.js
 * compatibility).
 */
export const loadSha256 = lazily(async (): Promise<Sha256Constructor> => {
  const crypto = builtinCrypto();
  if (!crypto) return (await import('@smithy/core/checksum')).Sha256;
  const { createHash, createHmac } = crypto;
  return class NodeSha256 implements Sha256Hash {
    private readonly hash;
    constructor(secret?: string | Uint8Array) {
      this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
    }
    update(data: Uint8Array): void {
      this.hash.update(data);
    }
    async digest(): Promise<Uint8Array> {
      return this.hash.digest();
    }
  };
});

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

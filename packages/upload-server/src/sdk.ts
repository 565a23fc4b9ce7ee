/**
 * The AWS SDK, imported on first use rather than with the package: importing `@upbeam/upload-server` (or
 * `/node`, `/next`) loads none of it; a presigned PUT to an address known from the settings loads only the
 * SDK's SHA-256 (`sigv4-query.ts`), and the presigner and `@aws-sdk/client-s3` only when the bucket's
 * address needs the SDK's endpoint rules (presign.ts); only a temporary token loads
 * `@aws-sdk/client-sts`. A serverless cold start then pays for what its first request needs
 * (bench/RESULTS.md, "Cold start"). Each module is imported once; later calls get it at once.
 */
import { builtinCrypto } from './builtin-crypto';
import { lazily } from './lazily';

/** `@aws-sdk/client-s3`: the storage client and its commands. */
export const loadS3 = lazily(() => import('@aws-sdk/client-s3'));

/** `@aws-sdk/client-sts`: temporary credentials (the temporary-token strategy only). */
export const loadSts = lazily(() => import('@aws-sdk/client-sts'));

/** `@aws-sdk/client-iam`: the roles a token could assume (the temporary-token strategy with an S3-compatible STS). */
export const loadIam = lazily(() => import('@aws-sdk/client-iam'));

/** `@aws-sdk/s3-request-presigner`: signs presigned URLs. */
export const loadPresigner = lazily(() => import('@aws-sdk/s3-request-presigner'));

/**
 * SHA-256 and HMAC-SHA256 as `sigv4-query.ts` uses them, on UTF-8 text. `node:crypto` answers at once (a
 * value); the SDK's portable `Sha256` (WebCrypto) answers later (a promise).
 */
export interface SigningHashes {
  /** SHA-256 of `text`, as lower-case hex. */
  sha256Hex(text: string): string | Promise<string>;
  /** HMAC-SHA256 of `text` under `key`: the 32 bytes. */
  hmac(key: string | Uint8Array, text: string): Uint8Array | Promise<Uint8Array>;
  /** HMAC-SHA256 of `text` under `key`, as lower-case hex. */
  hmacHex(key: Uint8Array, text: string): string | Promise<string>;
}

/** Two hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (let index = 0; index < bytes.length; index++) hex += HEX[bytes[index]!];
  return hex;
}

/** {@link SigningHashes} on `node:crypto`: one-shot calls, the text hashed as it is (no `TextEncoder`), hex from the runtime. */
function nodeHashes({ createHash, createHmac, hash }: typeof import('node:crypto')): SigningHashes {
  // `crypto.hash` (Node >= 20.12) hashes without a Hash object; Bun and Deno may lack it.
  const sha256Hex =
    typeof hash === 'function' ? (text: string) => hash('sha256', text, 'hex') : (text: string) => createHash('sha256').update(text).digest('hex');
  return {
    sha256Hex,
    hmac: (key, text) => createHmac('sha256', key).update(text).digest(),
    hmacHex: (key, text) => createHmac('sha256', key).update(text).digest('hex'),
  };
}

/** {@link SigningHashes} on the SDK's portable `Sha256` (WebCrypto, or JavaScript). */
async function portableHashes(): Promise<SigningHashes> {
  const { Sha256 } = await import('@smithy/core/checksum');
  const utf8 = new TextEncoder();
  const digest = (text: string, key?: string | Uint8Array) => {
    const hash = new Sha256(key);
    hash.update(utf8.encode(text));
    return hash.digest();
  };
  return {
    sha256Hex: async (text) => toHex(await digest(text)),
    hmac: (key, text) => digest(text, key),
    hmacHex: async (key, text) => toHex(await digest(text, key)),
  };
}

/**
 * SHA-256 and HMAC-SHA256 for `sigv4-query.ts`: `node:crypto` where the runtime has it built in (no module
 * to load: cold start; synchronous), else the SDK's portable `Sha256` (WebCrypto or JavaScript: workers
 * without Node.js compatibility).
 */
export const loadSigningHashes = lazily(async (): Promise<SigningHashes> => {
  const crypto = builtinCrypto();
  return crypto ? nodeHashes(crypto) : portableHashes();
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

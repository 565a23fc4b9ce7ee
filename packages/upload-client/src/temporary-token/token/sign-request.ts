/**
 * SigV4 signing of one storage request with temporary credentials, by the AWS SDK's own signer
 * (`@smithy/signature-v4`) over WebCrypto SHA-256. Header-signed (`Authorization`, `x-amz-security-token`):
 * radosgw 16.2 refuses query-presigned URLs made with STS credentials at the CORS preflight (403). The body
 * is never hashed: `x-amz-content-sha256: UNSIGNED-PAYLOAD`, which S3 accepts over any connection.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { WebCryptoSha256 } from './sha256';

/** The payload hash S3 accepts in place of the body's SHA-256 (SigV4 for S3, "unsigned payload option"). */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** A request to sign: `method` to `url` (the object's address, no query) with `query` and `headers`. */
export interface RequestToSign {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The object's address (`objectUrl`): its path is already percent-encoded, as S3 signs it. */
  url: string;
  /** Query parameters, not encoded (`{ uploadId, partNumber: '1' }`); an empty value is sent bare (`?uploads`). */
  query?: Record<string, string>;
  /** Headers to send and sign (names in lower case), besides the ones signing adds. */
  headers?: Record<string, string>;
}

/**
 * Cache-Control is one of the headers the SDK's signer leaves unsigned unless told (a proxy may change it);
 * the object's Cache-Control is signed so that it is stored as set.
 */
const SIGNED_DESPITE_DEFAULTS = new Set(['cache-control']);

/** RFC 3986 encoding of a query name or value, as SigV4 canonicalises it (`!'()*` too). */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Signs `request` with the credentials of `prepared` in its region, dated `signingDate`.
 * @returns the full URL (with the query) and the headers to send: every one signed, `host` excepted (the
 *   browser sets it, and refuses a page that tries).
 */
export async function signRequest(
  request: RequestToSign,
  prepared: TemporaryTokenUploadResponse,
  signingDate: Date,
): Promise<{ url: string; headers: Record<string, string> }> {
  const { Credentials } = prepared.token;
  const signer = new SignatureV4({
    service: 's3',
    region: prepared.region,
    credentials: {
      accessKeyId: Credentials.AccessKeyId,
      secretAccessKey: Credentials.SecretAccessKey,
      sessionToken: Credentials.SessionToken,
    },
    sha256: WebCryptoSha256,
    // S3 signs the path as sent (encoded once); other services encode it a second time.
    uriEscapePath: false,
  });
  const address = new URL(request.url);
  const query = request.query ?? {};
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: address.protocol,
      hostname: address.hostname,
      port: address.port ? Number(address.port) : undefined,
      path: address.pathname,
      query,
      headers: { ...request.headers, host: address.host, 'x-amz-content-sha256': UNSIGNED_PAYLOAD },
    },
    { signingDate, signableHeaders: SIGNED_DESPITE_DEFAULTS },
  );
  const { host: _host, ...headers } = signed.headers;
  const search = Object.entries(query)
    .map(([name, value]) => (value === '' ? encodeQueryPart(name) : `${encodeQueryPart(name)}=${encodeQueryPart(value)}`))
    .join('&');
  const base = `${address.origin}${address.pathname}`;
  return { url: search ? `${base}?${search}` : base, headers };
}

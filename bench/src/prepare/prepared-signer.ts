/**
 * For the preparation benchmark, not Upbeam's code: the presigned answer signed with one
 * `S3RequestPresigner` built once per handler, instead of `getSignedUrl`, which builds a presigner (and
 * loses its signing-key cache) and runs a command's whole middleware stack for every URL. This was first a
 * prototype, then Upbeam's own signing path, until `sigv4-query.ts` replaced it for every address known from
 * the settings (the SDK presigner now signs only addresses the endpoint probe resolves): the row shows what
 * that step was worth. `checkPreparedSigner()` proves its URL equals `getSignedUrl`'s.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';

/** RFC 3986 escaping, as SigV4 wants it (encodeURIComponent leaves `!'()*` alone). */
const escape = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface PreparedSignerSettings {
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  region: string;
}

const SIGNED = new Set(['content-type', 'cache-control']);

/** Builds the signer once; the returned function signs a PUT URL for `key` (virtual-hosted AWS address). */
export function createPreparedSigner(settings: PreparedSignerSettings) {
  const client = new S3Client({ region: settings.region, credentials: settings });
  const presigner = new S3RequestPresigner({ ...client.config });
  const hostname = `${settings.bucket}.s3.${settings.region}.amazonaws.com`;
  return async (key: string, contentType: string, signingDate?: Date): Promise<string> => {
    const path = `/${key.split('/').map(escape).join('/')}`;
    const signed = await presigner.presign(
      {
        method: 'PUT',
        protocol: 'https:',
        hostname,
        path,
        headers: { host: hostname, 'content-type': contentType, 'cache-control': 'max-age=630720000' },
        query: { 'x-id': 'PutObject' },
      },
      { expiresIn: 3600, signableHeaders: SIGNED, ...(signingDate ? { signingDate } : {}) },
    );
    const query = Object.entries(signed.query ?? {})
      .map(([name, value]) => `${escape(name)}=${escape(String(value))}`)
      .join('&');
    return `https://${hostname}${path}?${query}`;
  };
}

/** Throws unless the prototype signs exactly what `getSignedUrl` signs for the same input and time. */
export async function checkPreparedSigner(settings: PreparedSignerSettings): Promise<void> {
  const sign = createPreparedSigner(settings);
  // As Upbeam's storage client: no CRC32 of an empty body in the URL.
  const client = new S3Client({
    region: settings.region,
    credentials: settings,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const signingDate = new Date();
  const key = "next-s3-uploads/V1StGXR8_Z5jdHi6B-myT/holiday-photo-(1)!'*.jpg";
  const expected = await getSignedUrl(
    client,
    new PutObjectCommand({ Bucket: settings.bucket, Key: key, ContentType: 'image/jpeg', CacheControl: 'max-age=630720000' }),
    { expiresIn: 3600, signableHeaders: SIGNED, signingDate },
  );
  const actual = await sign(key, 'image/jpeg', signingDate);
  const signature = (url: string) => new URL(url).searchParams.get('X-Amz-Signature');
  if (signature(actual) !== signature(expected) || new URL(actual).pathname !== new URL(expected).pathname) {
    throw new Error(`prepared signer differs from getSignedUrl:\n${actual}\n${expected}`);
  }
}

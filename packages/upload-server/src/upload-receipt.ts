import { DeleteObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { UploadError } from './errors';
import type { ResolvedStorageSettings } from './settings';

/**
 * How long a receipt stays valid, in seconds: the credentials' 3600 s plus time for the upload to finish.
 */
export const RECEIPT_TTL_SECONDS = 2 * 3600;

const encoder = new TextEncoder();

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Issues and checks receipts (`{expiry}.{HMAC-SHA256}`) for keys this handler handed out. WebCrypto: any runtime. */
export interface Receipts {
  issue(key: string): Promise<string>;
  /** @throws {@link UploadError} `INVALID_REQUEST` (400) for a forged, altered or expired receipt. */
  verify(key: string, receipt: string): Promise<void>;
}

/** Receipts signed with a key derived from the server's secret access key (never the key itself). */
export function createReceipts(secretAccessKey: string, now: () => number = Date.now): Receipts {
  const hmacKey = crypto.subtle.importKey('raw', encoder.encode(`upbeam-receipt\n${secretAccessKey}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const sign = async (key: string, expiry: number) =>
    base64url(await crypto.subtle.sign('HMAC', await hmacKey, encoder.encode(`${expiry}\n${key}`)));
  return {
    async issue(key) {
      const expiry = Math.floor(now() / 1000) + RECEIPT_TTL_SECONDS;
      return `${expiry}.${await sign(key, expiry)}`;
    },
    async verify(key, receipt) {
      const [expiryText, signature] = receipt.split('.');
      const expiry = Number(expiryText);
      const expected = Number.isSafeInteger(expiry) ? await sign(key, expiry) : undefined;
      // Both sides are the same length when valid; compare every character so timing tells nothing.
      let same = expected !== undefined && signature !== undefined && expected.length === signature.length;
      for (let i = 0; same && i < expected!.length; i += 1) same = expected!.charCodeAt(i) === signature!.charCodeAt(i) && same;
      if (!same) throw new UploadError('INVALID_REQUEST', 'The upload receipt is not valid for this key.');
      if (expiry * 1000 < now()) throw new UploadError('INVALID_REQUEST', 'The upload receipt has expired.');
    },
  };
}

/** Reads an object's size and deletes an object: the server-side check of the token path's size limit. */
export interface ObjectInspector {
  /** Size in bytes of the stored object. */
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
}

/**
 * Built once per handler. Needs `s3:GetObject` (HeadObject) and `s3:DeleteObject` on the bucket for the
 * server's own credentials.
 */
export function createObjectInspector(settings: ResolvedStorageSettings, client: S3Client): ObjectInspector {
  return {
    async size(key) {
      const head = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }));
      return head.ContentLength ?? 0;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
    },
  };
}

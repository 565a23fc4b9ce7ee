import { UploadError } from './errors';
import { createHmac } from './hmac';

/**
 * How long a receipt stays valid, in seconds: the credentials' 3600 s (or the presigned URL's) plus time for the
 * upload to finish. A temporary-token upload that renews its credentials gets a fresh receipt with each renewal.
 */
export const RECEIPT_TTL_SECONDS = 2 * 3600;

/** Issues and checks receipts (`{expiry}.{HMAC-SHA256}`) for keys this handler handed out. WebCrypto: any runtime. */
export interface Receipts {
  issue(key: string): Promise<string>;
  /** @throws {@link UploadError} `INVALID_REQUEST` (400) for a forged, altered or expired receipt. */
  verify(key: string, receipt: string): Promise<void>;
}

/**
 * Receipts signed with a key derived from the server's secret access key (never the key itself). The
 * signature is checked in constant time ({@link createHmac}).
 */
export function createReceipts(secretAccessKey: string, now: () => number = Date.now): Receipts {
  const hmac = createHmac(secretAccessKey, 'receipt');
  const signed = (key: string, expiry: number) => `${expiry}\n${key}`;
  return {
    async issue(key) {
      const expiry = Math.floor(now() / 1000) + RECEIPT_TTL_SECONDS;
      return `${expiry}.${await hmac.sign(signed(key, expiry))}`;
    },
    async verify(key, receipt) {
      const [expiryText = '', signature = '', ...rest] = receipt.split('.');
      const expiry = /^\d{1,15}$/.test(expiryText) ? Number(expiryText) : undefined;
      const valid = rest.length === 0 && expiry !== undefined && (await hmac.verify(signed(key, expiry), signature));
      if (!valid) throw new UploadError('INVALID_REQUEST', 'The upload receipt is not valid for this key.');
      if (expiry * 1000 < now()) throw new UploadError('INVALID_REQUEST', 'The upload receipt has expired.');
    },
  };
}

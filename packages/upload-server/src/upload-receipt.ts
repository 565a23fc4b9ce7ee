import { UploadError } from './errors';
import { base64url, createHmac, fromBase64url } from './hmac';
import { TICKET_TTL_SECONDS } from './ticket';
import { MAX_CONTEXT_BYTES } from './upload-context';
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { checksumValueParts, isChecksumAlgorithm } from './upload-checksum';

/**
 * How long a receipt stays valid, in seconds: the credentials' 3600 s (or the presigned URL's) plus time for the
 * upload to finish. A temporary-token upload that renews its credentials gets a fresh receipt with each renewal,
 * never past {@link UPLOAD_LIFETIME_SECONDS} + this after its first preparation.
 */
export const RECEIPT_TTL_SECONDS = 2 * 3600;

/**
 * The longest an upload may keep write access to its key, in seconds (24 hours), counted from its first
 * preparation: renewals of a temporary-token upload keep the first ticket's end, and no renewal's
 * credentials outlive it by more than STS's shortest lifetime (900 s). So a report can arrive at most
 * this plus {@link RECEIPT_TTL_SECONDS} (26 hours) after the first preparation, well inside the 2 days the
 * Security guide's lifecycle rule keeps completion markers: a late report finds the marker, never runs the
 * hook again.
 */
export const UPLOAD_LIFETIME_SECONDS = TICKET_TTL_SECONDS;

/**
 * Longest receipt accepted, in characters: expiry (at most 15 digits, then `-` and a declared size of at most
 * 16, then a checksum of at most 64 and the deduplicated mark) and signature (43) with their dots, and the
 * base64url of a context of {@link MAX_CONTEXT_BYTES}.
 */
export const MAX_RECEIPT_LENGTH = 96 + 64 + Math.ceil((MAX_CONTEXT_BYTES * 4) / 3);

/** What a receipt binds beyond its key, context and declared size. */
export interface ReceiptFacts {
  /** The checksum the server signed into the upload (the value as signed: base64, `-N` composite). */
  checksum?: { algorithm: ChecksumAlgorithm; value: string } | undefined;
  /** Nothing was sent: storage already held these bytes at the (content-addressed) key. */
  deduplicated?: boolean | undefined;
}

/**
 * Issues and checks receipts (`{expiry}.{HMAC-SHA256}`, then `.{base64url context}` when the upload has a
 * context: `upload-context.ts`) for keys this handler handed out; the expiry is `{expiry}-{size}` when the
 * receipt binds the upload's declared size (a route with `limits`), followed by `_{algorithm}_{value}` when it
 * binds the checksum signed into the upload, and `_d` for an upload that sent nothing (deduplicated).
 * HMAC-SHA256 (`hmac.ts`): any runtime.
 */
export interface Receipts {
  /**
   * A receipt for `key`, valid {@link RECEIPT_TTL_SECONDS} from now, or until `notAfter` (seconds since the
   * epoch) when that is sooner, carrying `context` (JSON text; readable, bound by the signature) and the
   * declared `size` in bytes (bound too), and `facts` (the signed checksum, deduplicated), when given.
   */
  issue(key: string, notAfter?: number, context?: string, size?: number, facts?: ReceiptFacts): Promise<string>;
  /**
   * @returns the context the receipt carries (JSON text), undefined without one.
   * @throws {@link UploadError} `INVALID_REQUEST` (400) for a forged, altered or expired receipt, or another handler's.
   */
  verify(key: string, receipt: string): Promise<string | undefined>;
  /** As {@link Receipts.verify}, with the declared size the receipt binds (undefined: none) and its {@link ReceiptFacts}. */
  open(key: string, receipt: string): Promise<{ context: string | undefined; size: number | undefined } & ReceiptFacts>;
}

/**
 * A receipt's first part: its expiry (seconds since the epoch), then `-{size}` when it binds a declared size,
 * `_{algorithm}_{checksum}` when it binds a checksum, `_d` when the upload was deduplicated.
 */
const EXPIRY_PART = /^(\d{1,15})(?:-(\d{1,16}))?(?:_([a-z0-9]{3,9})_([A-Za-z0-9+/=]{4,44}(?:-\d{1,5})?))?(_d)?$/;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The context part of a receipt as text; null when it is not base64url of UTF-8. */
function contextOf(part: string | undefined): string | undefined | null {
  if (part === undefined) return undefined;
  const bytes = fromBase64url(part);
  if (bytes === undefined || bytes.length === 0) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Receipts signed with a key derived from the server's secret access key (never the key itself) and the
 * handler's `scope` (`handlerScope`: bucket and key prefix), so that a handler with other rules and hooks but
 * the same credentials refuses them. The signature is checked in constant time ({@link createHmac}).
 */
export function createReceipts(secretAccessKey: string, options: { scope: string; now?: (() => number) | undefined }): Receipts {
  const now = options.now ?? Date.now;
  const hmac = createHmac(secretAccessKey, 'receipt', options.scope);
  // The first part is signed as it is written: `{expiry}` or `{expiry}-{size}`.
  const signed = (key: string, expiry: string, context: string | undefined) =>
    context === undefined ? `${expiry}\n${key}` : `${expiry}\n${key}\n${context}`;
  const open: Receipts['open'] = async (key, receipt) => {
    const [expiryText = '', signature = '', contextPart, ...rest] = receipt.split('.');
    const parts = EXPIRY_PART.exec(expiryText);
    const context = contextOf(contextPart);
    const valid = rest.length === 0 && parts !== null && context !== null && (await hmac.verify(signed(key, expiryText, context), signature));
    if (!valid) throw new UploadError('INVALID_REQUEST', 'The upload receipt is not valid for this key.');
    if (Number(parts[1]) * 1000 < now()) throw new UploadError('INVALID_REQUEST', 'The upload receipt has expired.');
    const [, , sizeText, algorithm, value, deduplicated] = parts;
    // Signed by this server: a checksum that does not read is a bug, not the browser's; refused all the same.
    if (algorithm !== undefined && (!isChecksumAlgorithm(algorithm) || !checksumValueParts(algorithm, value!))) {
      throw new UploadError('INVALID_REQUEST', 'The upload receipt is not valid for this key.');
    }
    return {
      context: context ?? undefined,
      size: sizeText === undefined ? undefined : Number(sizeText),
      ...(algorithm === undefined ? {} : { checksum: { algorithm, value: value! } }),
      ...(deduplicated === undefined ? {} : { deduplicated: true }),
    };
  };
  return {
    async issue(key, notAfter = Infinity, context, size, facts = {}) {
      const expiry = Math.min(Math.floor(now() / 1000) + RECEIPT_TTL_SECONDS, notAfter);
      const checksum = facts.checksum === undefined ? '' : `_${facts.checksum.algorithm}_${facts.checksum.value}`;
      const first = `${size === undefined ? `${expiry}` : `${expiry}-${size}`}${checksum}${facts.deduplicated ? '_d' : ''}`;
      const receipt = `${first}.${await hmac.sign(signed(key, first, context))}`;
      return context === undefined ? receipt : `${receipt}.${base64url(new TextEncoder().encode(context))}`;
    },
    verify: async (key, receipt) => (await open(key, receipt)).context,
    open,
  };
}

import {
  MAX_PARTS,
  MAX_PARTS_PER_SIGN_REQUEST,
  UPLOAD_STRATEGIES,
  type CompletedPart,
  type MultipartRequest,
  type UploadMarker,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import { readNextS3Strategy } from './next-s3-marker';
import { MAX_TICKET_LENGTH } from './ticket';
import { readChecksumRequest } from './upload-checksum';
import { MAX_RECEIPT_LENGTH } from './upload-receipt';

/**
 * Longest part ETag accepted, in characters. S3's are 34 (an MD5 in hex, in quotes); other stores use a few
 * more. Printable ASCII only: it goes back to storage in the CompleteMultipartUpload XML.
 */
export const MAX_ETAG_LENGTH = 256;

const ETAG = /^[\x20-\x7e]+$/;

/** `value[field]` when it is the value's own property (never one inherited through `__proto__`). */
function own(value: unknown, field: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, field)
    ? (value as Record<string, unknown>)[field]
    : undefined;
}

function invalid(message: string): UploadError {
  return new UploadError('INVALID_REQUEST', message);
}

function readStrategy(marker: unknown): UploadStrategy {
  const strategy = own(marker, 'strategy');
  if (!UPLOAD_STRATEGIES.includes(strategy as UploadStrategy)) {
    throw invalid(`"_upload.strategy" must be one of: ${UPLOAD_STRATEGIES.map((s) => `"${s}"`).join(', ')}.`);
  }
  return strategy as UploadStrategy;
}

function readTicket(operation: unknown, where: string): string {
  const ticket = own(operation, 'ticket');
  if (typeof ticket !== 'string' || ticket === '' || ticket.length > MAX_TICKET_LENGTH) {
    throw invalid(`"${where}.ticket" must be the ticket string the endpoint answered with.`);
  }
  return ticket;
}

const isPartNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_PARTS;

function readPartNumbers(operation: unknown): number[] {
  const numbers = own(operation, 'partNumbers');
  if (!Array.isArray(numbers) || numbers.length === 0 || numbers.length > MAX_PARTS_PER_SIGN_REQUEST || !numbers.every(isPartNumber)) {
    throw invalid(
      `"_upload.multipart.partNumbers" must be 1 to ${MAX_PARTS_PER_SIGN_REQUEST} part numbers, each a whole number from 1 to ${MAX_PARTS}.`,
    );
  }
  return numbers;
}

function readCompletedParts(operation: unknown): CompletedPart[] {
  const parts = own(operation, 'parts');
  const wrong = () =>
    invalid(
      `"_upload.multipart.parts" must be 1 to ${MAX_PARTS} parts { partNumber, etag }: a part number from 1 to ${MAX_PARTS} and ` +
        `the ETag storage answered (printable ASCII, at most ${MAX_ETAG_LENGTH} characters).`,
    );
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_PARTS) throw wrong();
  return parts.map((part: unknown) => {
    const partNumber = own(part, 'partNumber');
    const etag = own(part, 'etag');
    const checksum = own(part, 'checksum');
    if (!isPartNumber(partNumber) || typeof etag !== 'string' || etag.length > MAX_ETAG_LENGTH || !ETAG.test(etag)) throw wrong();
    // Its form is checked against the upload's algorithm (the ticket's) by the operation.
    if (checksum !== undefined && !isChecksumText(checksum)) throw wrong();
    return checksum === undefined ? { partNumber, etag } : { partNumber, etag, checksum };
  });
}

/** Longest checksum text accepted (a SHA-256 in base64 is 44 characters, `-10000` more for a composite one). */
const MAX_CHECKSUM_LENGTH = 64;

const isChecksumText = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= MAX_CHECKSUM_LENGTH;

/** `sign-parts` `checksums`: one checksum text per part number, in their order (checked against the ticket's algorithm later). */
function readPartChecksums(operation: unknown, count: number): string[] | undefined {
  const checksums = own(operation, 'checksums');
  if (checksums === undefined) return undefined;
  if (!Array.isArray(checksums) || checksums.length !== count || !checksums.every(isChecksumText)) {
    throw new UploadError('INVALID_CHECKSUM', '"_upload.multipart.checksums" must hold one checksum (base64) per part number, in the same order.');
  }
  return checksums;
}

function readMultipart(operation: unknown): MultipartRequest {
  const action = own(operation, 'action');
  const where = '_upload.multipart';
  switch (action) {
    case 'create': {
      const partSize = own(operation, 'partSize');
      if (typeof partSize !== 'number') throw invalid(`"${where}.partSize" must be a number of bytes.`);
      return { action, partSize };
    }
    case 'sign-parts': {
      const partNumbers = readPartNumbers(operation);
      const checksums = readPartChecksums(operation, partNumbers.length);
      return { action, ticket: readTicket(operation, where), partNumbers, ...(checksums === undefined ? {} : { checksums }) };
    }
    case 'list-parts':
    case 'abort':
      return { action, ticket: readTicket(operation, where) };
    case 'complete': {
      const checksum = own(operation, 'checksum');
      if (checksum !== undefined && !isChecksumText(checksum)) throw new UploadError('INVALID_CHECKSUM', `"${where}.checksum" must be the object's checksum (base64).`);
      return { action, ticket: readTicket(operation, where), parts: readCompletedParts(operation), ...(checksum === undefined ? {} : { checksum }) };
    }
    default:
      throw invalid(`"${where}.action" must be one of: "create", "sign-parts", "list-parts", "complete", "abort".`);
  }
}

/**
 * Reads the `_upload` marker of a request body: the strategy and at most one operation (`complete`,
 * `multipart` for the presigned strategy, `renew` for the temporary-token strategy). Own properties only.
 * A body with next-s3-upload's marker instead (`_nextS3: { strategy: 'presigned' | 'aws-sdk' }`, from its
 * unchanged client) prepares an upload of the matching strategy (`presigned`, `temporary-token`).
 *
 * `checksum` (`ChecksumRequest`) is read with any operation but `complete`.
 *
 * @throws {@link UploadError} `INVALID_REQUEST` (400) naming the field that is missing, of the wrong type,
 *   out of range, or given with the other strategy; or when the body holds both `_upload` and `_nextS3`;
 *   `INVALID_CHECKSUM` (400) for a `checksum` of an unknown algorithm or not of its digest's form, or
 *   `sign-parts` `checksums` that are not one per part number.
 */
export function readMarker(body: Record<string, unknown>): UploadMarker {
  const marker = own(body, '_upload');
  const nextS3 = own(body, '_nextS3');
  if (nextS3 !== undefined) {
    if (marker !== undefined) throw invalid('Send one marker, "_upload" or "_nextS3" (next-s3-upload\'s client), not both.');
    return { strategy: readNextS3Strategy(nextS3) };
  }
  const strategy = readStrategy(marker);
  const checksumField = own(marker, 'checksum');
  const checksum = checksumField === undefined ? {} : { checksum: readChecksumRequest(checksumField) };
  const complete = own(marker, 'complete');
  const multipart = own(marker, 'multipart');
  const renew = own(marker, 'renew');
  const operations = [complete, multipart, renew].filter((operation) => operation !== undefined);
  if (operations.length > 1) throw invalid('"_upload" may hold at most one of "complete", "multipart" and "renew".');

  if (complete !== undefined) {
    const key = own(complete, 'key');
    const receipt = own(complete, 'receipt');
    if (typeof key !== 'string' || typeof receipt !== 'string' || receipt.length > MAX_RECEIPT_LENGTH) {
      throw invalid('"_upload.complete" must be { key, receipt } from a preparation answer.');
    }
    return { strategy, complete: { key, receipt } };
  }
  if (multipart !== undefined) {
    if (strategy !== 'presigned') throw invalid('"_upload.multipart" goes with the "presigned" strategy.');
    return { strategy, ...checksum, multipart: readMultipart(multipart) };
  }
  if (renew !== undefined) {
    if (strategy !== 'temporary-token') throw invalid('"_upload.renew" goes with the "temporary-token" strategy.');
    return { strategy, ...checksum, renew: { ticket: readTicket(renew, '_upload.renew') } };
  }
  return { strategy, ...checksum };
}

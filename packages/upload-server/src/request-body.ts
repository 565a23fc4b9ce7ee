import { UPLOAD_STRATEGIES, type UploadRequestBody, type UploadStrategy } from '@upbeam/upload-protocol';
import { UploadError } from './errors';

/** Largest request body the endpoint reads, in bytes (16 KiB): a file name, a type and a few fields. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Longest accepted `filename`, in characters. S3 object keys are at most 1024 bytes of UTF-8
 * (AWS S3 User Guide, "Naming Amazon S3 objects"); the key also holds a prefix and an id.
 */
export const MAX_FILENAME_LENGTH = 900;

/** Longest accepted `filetype`, in characters (RFC 6838 bounds type and subtype at 127 each, plus parameters). */
export const MAX_FILETYPE_LENGTH = 255;

/** Largest object S3 stores, in bytes (5 TiB): a larger declared `filesize` is refused. */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 4;

/**
 * `type/subtype` with RFC 6838 restricted-name characters, optionally `; parameters` of printable ASCII.
 * It becomes a signed Content-Type header: no control characters, no line breaks.
 */
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;[\x20-\x7e]*)?$/;

async function readCapped(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

function tooLarge(): UploadError {
  return new UploadError('PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

function requireString(body: Record<string, unknown>, field: string, max: number): string {
  const value = Object.hasOwn(body, field) ? body[field] : undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UploadError('INVALID_REQUEST', `"${field}" must be a non-empty string.`);
  }
  if (value.length > max) {
    throw new UploadError('INVALID_REQUEST', `"${field}" must be at most ${max} characters.`);
  }
  return value;
}

function readFilesize(body: Record<string, unknown>): number | undefined {
  if (!Object.hasOwn(body, 'filesize') || body.filesize === undefined) return undefined;
  const size = body.filesize;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || size > MAX_OBJECT_BYTES) {
    throw new UploadError('INVALID_REQUEST', `"filesize" must be a whole number of bytes from 0 to ${MAX_OBJECT_BYTES}.`);
  }
  return size;
}

type Marker = UploadRequestBody['_upload'];

function own(value: unknown, field: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, field)
    ? (value as Record<string, unknown>)[field]
    : undefined;
}

function readMarker(body: Record<string, unknown>): Marker {
  const strategy = readStrategy(body);
  const complete = own(own(body, '_upload'), 'complete');
  if (complete === undefined) return { strategy };
  const key = own(complete, 'key');
  const receipt = own(complete, 'receipt');
  if (strategy !== 'temporary-token' || typeof key !== 'string' || typeof receipt !== 'string' || receipt.length > 200) {
    throw new UploadError(
      'INVALID_REQUEST',
      '"_upload.complete" must be { key, receipt } from a temporary-token preparation answer.',
    );
  }
  return { strategy, complete: { key, receipt } };
}

function readStrategy(body: Record<string, unknown>): UploadStrategy {
  const marker = Object.hasOwn(body, '_upload') ? body._upload : undefined;
  const strategy =
    marker !== null && typeof marker === 'object' && Object.hasOwn(marker, 'strategy')
      ? (marker as { strategy: unknown }).strategy
      : undefined;
  if (!UPLOAD_STRATEGIES.includes(strategy as UploadStrategy)) {
    throw new UploadError(
      'INVALID_REQUEST',
      `"_upload.strategy" must be one of: ${UPLOAD_STRATEGIES.map((s) => `"${s}"`).join(', ')}.`,
    );
  }
  return strategy as UploadStrategy;
}

/**
 * Reads and checks the JSON body of a preparation request.
 *
 * @throws {@link UploadError} `METHOD_NOT_ALLOWED` (405) unless POST; `UNSUPPORTED_MEDIA_TYPE` (415) unless
 *   the content type is JSON; `PAYLOAD_TOO_LARGE` (413) over {@link MAX_BODY_BYTES}; `INVALID_JSON` (400);
 *   `INVALID_REQUEST` (400) when `filename`/`filetype` are not non-empty strings of bounded length, `filetype`
 *   is not a media type, `filesize` is not a whole number of bytes, or the strategy is unknown.
 */
export async function readUploadRequest(request: Request): Promise<UploadRequestBody> {
  if (request.method !== 'POST') {
    throw new UploadError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed: use POST.`);
  }
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new UploadError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readCapped(request));
  } catch (error) {
    if (error instanceof UploadError) throw error;
    throw new UploadError('INVALID_JSON', 'Request body is not valid JSON.', { cause: error });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UploadError('INVALID_REQUEST', 'Request body must be a JSON object.');
  }
  const body = parsed as Record<string, unknown>;
  const filetype = requireString(body, 'filetype', MAX_FILETYPE_LENGTH);
  if (!MEDIA_TYPE.test(filetype)) {
    throw new UploadError('INVALID_REQUEST', '"filetype" must be a media type such as "image/png".');
  }
  const filesize = readFilesize(body);
  return {
    ...body,
    filename: requireString(body, 'filename', MAX_FILENAME_LENGTH),
    filetype,
    ...(filesize === undefined ? {} : { filesize }),
    _upload: readMarker(body),
  };
}

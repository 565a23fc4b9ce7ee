import { MAX_OBJECT_SIZE, type UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { IncomingRequest } from './incoming-request';
import { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES } from './limits';
import { normalizeMediaType } from './media-type';
import { readMarker } from './upload-marker';

export { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES };

/**
 * Longest accepted `filename`, in characters. S3 object keys are at most 1024 bytes of UTF-8
 * (AWS S3 User Guide, "Naming Amazon S3 objects"); the key also holds a prefix and an id.
 */
export const MAX_FILENAME_LENGTH = 900;

/** Longest accepted `filetype`, in characters (RFC 6838 bounds type and subtype at 127 each, plus parameters). */
export const MAX_FILETYPE_LENGTH = 255;

/**
 * The body's text and its length in bytes (for a sized body, an upper bound: {@link utf8BytesAtMost}),
 * reading at most `cap` bytes.
 *
 * A body the adapter read already (`incoming.bytes`: the node adapter's, up to 16 KiB, or one a framework
 * parsed) is decoded as it is. A body that declares a Content-Length up to {@link MAX_BODY_BYTES} (every
 * preparation request a browser sends) is read whole with `text()`, and its length checked again: on
 * @hono/node-server a Request is built lazily, and `body.getReader()` made it build a full undici Request
 * (~85 % of the body-read time in the preparation benchmark's profile); `text()` decodes the buffer it read,
 * where `arrayBuffer()` copies it first. A body without a length, or a longer one (up to `cap`: a multipart
 * `complete`), is streamed and cut at `cap`.
 */
async function readCapped(incoming: IncomingRequest, cap: number, admit: BodyAdmission): Promise<{ text: string; bytes: number }> {
  const inMemory = incoming.bytes;
  if (inMemory) {
    if (inMemory.byteLength > cap) throw tooLarge(cap);
    if (inMemory.byteLength <= MAX_BODY_BYTES) return { text: UTF8_DECODER.decode(inMemory), bytes: inMemory.byteLength };
    // Past 16 KiB (a body a framework parsed), as a stream would be read: admission, then the cap.
    return readStream(new Blob([inMemory as Uint8Array<ArrayBuffer>]).stream(), cap, admit);
  }
  const request = incoming.request;
  const declared = Number(request.headers.get('content-length'));
  if (declared > cap) throw tooLarge(cap);
  // `request.body` is not touched on this path: reading it is what makes @hono/node-server build the
  // full Request.
  if (request.headers.has('content-length') && declared <= MAX_BODY_BYTES) {
    const text = await request.text();
    // The runtime checks a body against its Content-Length; this holds even where it does not.
    const bytes = utf8BytesAtMost(text);
    if (bytes > MAX_BODY_BYTES) throw tooLarge(MAX_BODY_BYTES);
    return { text, bytes };
  }
  if (!request.body) return { text: '', bytes: 0 };
  return readStream(request.body, cap, admit);
}

/** Decodes UTF-8 as `Request.text()` does (a leading BOM dropped, invalid bytes as U+FFFD). */
const UTF8_DECODER = new TextDecoder();

/**
 * Whether a body may be read past {@link MAX_BODY_BYTES}, judged on its first 16 KiB of text (not parsed:
 * a JSON object cut short). The handler admits one that names a multipart ticket it issued.
 */
export type BodyAdmission = (head: string) => Promise<boolean>;

/** Admits no body past {@link MAX_BODY_BYTES}. */
const ADMIT_NONE: BodyAdmission = async () => false;

/** Encodes decoded bodies again to count their bytes. */
const UTF8_ENCODER = new TextEncoder();

/**
 * An upper bound of the bytes `text` was decoded from. A UTF-16 code unit comes from at most 3 bytes, so a
 * short text (at most `MAX_BODY_BYTES / 3` units) is not encoded; a longer one is encoded again, which is
 * exact for valid UTF-8 (an invalid sequence of 1 to 3 bytes became U+FFFD, 3 bytes: never fewer).
 */
function utf8BytesAtMost(text: string): number {
  return text.length * 3 <= MAX_BODY_BYTES ? text.length * 3 : UTF8_ENCODER.encode(text).byteLength;
}

/**
 * Reads `body` as UTF-8 text, failing with 413 once more than `cap` bytes arrive, or once more than
 * {@link MAX_BODY_BYTES} arrive of a body that `admit` does not let past them.
 */
async function readStream(body: ReadableStream<Uint8Array>, cap: number, admit: BodyAdmission): Promise<{ text: string; bytes: number }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let admitted = false;
  for (;;) {
    const read = await reader.read();
    if (read.done) return { text: text + decoder.decode(), bytes };
    let value = read.value;
    if (!admitted && bytes + value.byteLength > MAX_BODY_BYTES) {
      // The first 16 KiB are decoded (the decoder keeps a character cut at the boundary for what follows).
      const headBytes = MAX_BODY_BYTES - bytes;
      text += decoder.decode(value.subarray(0, headBytes), { stream: true });
      bytes = MAX_BODY_BYTES;
      value = value.subarray(headBytes);
      admitted = await admit(text);
      if (!admitted) {
        await reader.cancel();
        throw new UploadError(
          'PAYLOAD_TOO_LARGE',
          `Request body is larger than ${MAX_BODY_BYTES} bytes: only a multipart complete with a valid ticket may be larger.`,
        );
      }
    }
    bytes += value.byteLength;
    if (bytes > cap) {
      await reader.cancel();
      throw tooLarge(cap);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function tooLarge(cap: number): UploadError {
  return new UploadError('PAYLOAD_TOO_LARGE', `Request body is larger than ${cap} bytes.`);
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
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || size > MAX_OBJECT_SIZE) {
    throw new UploadError('INVALID_REQUEST', `"filesize" must be a whole number of bytes from 0 to ${MAX_OBJECT_SIZE}.`);
  }
  return size;
}

/**
 * Reads and checks the JSON body of a preparation request.
 *
 * @param admit - Lets a body be read past {@link MAX_BODY_BYTES} (up to {@link MAX_COMPLETE_BODY_BYTES}),
 *   judged on its first 16 KiB; by default none is.
 * @throws {@link UploadError} `METHOD_NOT_ALLOWED` (405) unless POST; `UNSUPPORTED_MEDIA_TYPE` (415) unless
 *   the content type is JSON; `PAYLOAD_TOO_LARGE` (413) over {@link MAX_BODY_BYTES} (over
 *   {@link MAX_COMPLETE_BODY_BYTES} for a multipart `complete` that `admit` let through); `INVALID_JSON` (400);
 *   `INVALID_REQUEST` (400) when `filename`/`filetype` are not non-empty strings of bounded length, `filetype`
 *   is not a media type, `filesize` is not a whole number of bytes, the strategy is unknown, or the
 *   `_upload` operation is malformed (see `readMarker`).
 */
export async function readUploadRequest(incoming: IncomingRequest, admit: BodyAdmission = ADMIT_NONE): Promise<UploadRequestBody> {
  if (incoming.method !== 'POST') {
    throw new UploadError('METHOD_NOT_ALLOWED', `Method ${incoming.method} is not allowed: use POST.`);
  }
  const contentType = incoming.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new UploadError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json.');
  }
  let parsed: unknown;
  let bytes: number;
  try {
    const received = await readCapped(incoming, MAX_COMPLETE_BODY_BYTES, admit);
    bytes = received.bytes;
    parsed = JSON.parse(received.text);
  } catch (error) {
    if (error instanceof UploadError) throw error;
    throw new UploadError('INVALID_JSON', 'Request body is not valid JSON.', { cause: error });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UploadError('INVALID_REQUEST', 'Request body must be a JSON object.');
  }
  const body = parsed as Record<string, unknown>;
  const marker = readMarker(body);
  if (bytes > MAX_BODY_BYTES && marker.multipart?.action !== 'complete') throw tooLarge(MAX_BODY_BYTES);
  // One normalized value from here on: what every check reads, and what is signed and stored.
  const filetype = normalizeMediaType(requireString(body, 'filetype', MAX_FILETYPE_LENGTH));
  if (filetype === undefined) {
    throw new UploadError(
      'INVALID_REQUEST',
      '"filetype" must be one media type such as "image/png" (RFC 9110: type/subtype and parameters; no comma).',
    );
  }
  const filesize = readFilesize(body);
  return {
    ...body,
    filename: requireString(body, 'filename', MAX_FILENAME_LENGTH),
    filetype,
    ...(filesize === undefined ? {} : { filesize }),
    _upload: marker,
  };
}

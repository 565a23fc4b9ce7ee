/**
 * Honest progress of a presigned POST: the browser counts the whole `multipart/form-data` body (the policy, the
 * signature and the other fields before the file, the boundaries after it), the user wants the file's bytes.
 */
import type { PresignedPostUploadResponse } from '@upbeam/upload-protocol';

/**
 * Bytes of a form's encoding around one field, beside its name and value, an upper bound in every engine:
 * `--{boundary}\r\n` (a boundary has at most 70 characters, RFC 2046), `Content-Disposition: form-data;
 * name=""\r\n\r\n`, the value's `\r\n`.
 */
const FIELD_FRAME_BYTES = 128;

/** Bytes of the file part's own header beside its filename and type, and of the closing boundary: an upper bound. */
const FILE_FRAME_BYTES = 256;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/**
 * The form's bytes that are not the file's, at most: the fields with their frames, the file part's header (its
 * name escaped: at most 3 bytes a character) and the closing boundary. Used when the browser does not say the
 * body's size.
 */
export function formOverheadBound(fields: PresignedPostUploadResponse['fields'], file: Blob): number {
  let bytes = FILE_FRAME_BYTES + utf8Length(file.type) + ('name' in file ? 3 * utf8Length(String(file.name)) : 0);
  for (const [name, value] of Object.entries(fields)) bytes += FIELD_FRAME_BYTES + utf8Length(name) + utf8Length(value);
  return bytes;
}

/**
 * The file's bytes to show while its form is sent: what the browser has sent (`loaded`) less every byte of the
 * form that is not the file's (`total - size`, or {@link formOverheadBound} when the browser does not say the
 * total), so the fields before the file count nothing and the closing boundary after it does not make up for
 * file bytes not yet sent. At most `size - 1`: the last byte shows only once storage answered that it stored the
 * object (a POST stores all or nothing).
 * @param loaded - Bytes of the body sent so far, as the browser reports them.
 * @param total - The body's size; 0 (or less than `size`) when the browser does not know it.
 * @param size - The file's size, in bytes.
 * @param overhead - The form's bytes beside the file when `total` is unknown ({@link formOverheadBound}).
 */
export function fileBytesSent(loaded: number, total: number, size: number, overhead: () => number): number {
  const around = total > 0 && total >= size ? total - size : overhead();
  return Math.max(0, Math.min(size - 1, loaded - around));
}

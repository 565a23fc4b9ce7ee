import { nanoid } from 'nanoid';
import { INTERNAL_PREFIX } from './completion-marker';
import { UploadError } from './errors';
import { hexOfBase64 } from './upload-checksum';

/** Prefix of default object keys (SPEC 9). */
export const DEFAULT_KEY_PREFIX = 'next-s3-uploads/';

/** Longest object key S3 accepts, in bytes of UTF-8 (AWS S3 User Guide, "Naming Amazon S3 objects"). */
export const MAX_KEY_BYTES = 1024;

/** Counts the UTF-8 bytes of keys (one encoder for all). */
const UTF8 = new TextEncoder();

/**
 * Characters S3 documents as safe in object keys: letters, digits and `! - _ . * ' ( )`
 * (AWS S3 User Guide, "Naming Amazon S3 objects", safe characters).
 */
const UNSAFE_CHARACTERS = /[^A-Za-z0-9!\-_.*'()]/g;

/**
 * Control characters (C0, DEL, C1) and the Unicode bidirectional controls (LRM, RLM, ALM, embeddings,
 * overrides, isolates) that make a name display differently from what it is (`invoice\u202Efdp.exe`).
 */
const FORBIDDEN_IN_KEY = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Makes a file name safe for an object key (SPEC 9): every character outside S3's safe set becomes a
 * space, then runs of whitespace collapse to one `-`; leading and trailing whitespace is dropped.
 * A name that ends up empty, or made of dots only (`.`, `..`: a path segment), becomes `file`.
 *
 * @example
 * sanitizeFileName('my photo (1).jpg') // 'my-photo-(1).jpg'
 * sanitizeFileName('../etc/passwd')     // '..-etc-passwd'
 */
export function sanitizeFileName(name: string): string {
  const safe = name.replace(UNSAFE_CHARACTERS, ' ').trim().replace(/\s+/g, '-');
  return /^\.*$/.test(safe) ? 'file' : safe;
}

/**
 * Makes a file's path inside a dropped folder safe for an object key: each `/` segment is sanitized as
 * {@link sanitizeFileName}, and empty segments are dropped (so no empty, `.` or `..` segment is left, a
 * dots-only one becoming `file`). A name without `/` is sanitized as a name.
 *
 * @example
 * sanitizeFilePath('photos/2024/my photo.jpg') // 'photos/2024/my-photo.jpg'
 * sanitizeFilePath('../../etc/passwd')          // 'file/file/etc/passwd'
 */
export function sanitizeFilePath(path: string): string {
  if (!path.includes('/')) return sanitizeFileName(path);
  const segments = path.split('/').filter((segment) => segment.trim() !== '');
  return segments.length === 0 ? 'file' : segments.map(sanitizeFileName).join('/');
}

/** Ends a non-empty prefix with `/`, so that `uploads` never matches `uploads-other/...`. */
export function normalizeKeyPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/**
 * The default object key: `{prefix}{id}/{sanitized file name}` (SPEC 9: `next-s3-uploads/{id}/{name}`),
 * where `id` is a fresh nanoid (21 URL-safe characters), so two uploads of the same name never overwrite
 * each other. A `filename` with `/` (a file of a dropped folder, `photos/2024/a.jpg`) keeps its folders,
 * each segment sanitized (`sanitizeFilePath`). A name too long for S3's 1024-byte key limit is
 * shortened, keeping its end (the extension), and never starts with `/`.
 */
export function defaultObjectKey(filename: string, prefix: string = DEFAULT_KEY_PREFIX): string {
  const head = `${normalizeKeyPrefix(prefix)}${nanoid()}/`;
  const name = sanitizeFilePath(filename);
  const room = MAX_KEY_BYTES - UTF8.encode(head).byteLength;
  // The sanitized name is ASCII: one byte per character.
  const kept = name.length > room ? name.slice(name.length - room).replace(/^\/+/, '') : name;
  return head + (kept === '' ? 'file' : kept);
}

/** A file name's extension kept on a content-addressed key: a dot and 1 to 16 letters or digits, lower-cased. */
const KEPT_EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/**
 * The key of a content-addressed route (`contentAddressed`): `{prefix}sha256/{hex of the SHA-256}` (a multipart
 * checksum's `-{parts}` kept: `{hex}-{parts}`), then the file name's extension, lower-cased (`.jpg`), when it
 * has one of 1 to 16 letters or digits. The same bytes (and extension) always get the same key.
 * @param digest - The SHA-256 in base64, as `_upload.checksum.value` carries it (`{base64}-{N}` for a composite one).
 * @example
 * contentObjectKey('n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=', 'Cat.JPG', 'u/')
 * // 'u/sha256/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.jpg'
 */
export function contentObjectKey(digest: string, filename: string, prefix: string = DEFAULT_KEY_PREFIX): string {
  const [base64, parts] = digest.split('-');
  const hex = hexOfBase64(base64!);
  const extension = KEPT_EXTENSION.exec(filename)?.[0].toLowerCase() ?? '';
  return `${normalizeKeyPrefix(prefix)}sha256/${hex}${parts === undefined ? '' : `-${parts}`}${extension}`;
}

/**
 * Whether `text` takes more than `limit` bytes of UTF-8; encoded only when it might (a UTF-16 code unit is
 * at most 3 bytes of UTF-8).
 */
function overByteLimit(text: string, limit: number): boolean {
  return text.length * 3 > limit && UTF8.encode(text).byteLength > limit;
}

function invalidKey(key: string, why: string): UploadError {
  return new UploadError('INVALID_OBJECT_KEY', `Object key ${JSON.stringify(key.slice(0, 200))} ${why}.`);
}

/**
 * Why `key` is not a key the handler would sign under `prefix` (the rules of {@link assertValidObjectKey} and
 * of {@link isKeyUnder}), or undefined when it is one.
 */
export function objectKeyProblem(key: unknown, prefix: string): string | undefined {
  if (typeof key !== 'string' || key === '') return 'must be a non-empty string';
  if (overByteLimit(key, MAX_KEY_BYTES)) return `is over ${MAX_KEY_BYTES} bytes`;
  if (FORBIDDEN_IN_KEY.test(key)) return 'holds a control or bidirectional-override character';
  if (key.includes('\\')) return 'holds a backslash';
  if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'has an empty, "." or ".." segment';
  const normalized = normalizeKeyPrefix(prefix);
  if (!key.startsWith(normalized)) return `is not under the prefix "${normalized}"`;
  if (key.startsWith(INTERNAL_PREFIX)) return `is under "${INTERNAL_PREFIX}", the handler's own objects`;
  return undefined;
}

/**
 * Checks an object key before anything is signed for it: a custom `key` function's or `onBeforeUpload`'s
 * result gets the same checks as the default. The key must be non-empty, at most 1024 bytes of UTF-8, hold
 * no control or bidirectional-override characters, no backslash, no empty, `.` or `..` segment, not start
 * with or end in `/`, start with `prefix` (when non-empty), and not be under `.upbeam/` (the handler's
 * completion markers and upload records).
 *
 * @throws {@link UploadError} `INVALID_OBJECT_KEY` (500: a server-side bug, logged, not shown to the browser).
 */
export function assertValidObjectKey(key: unknown, prefix: string): asserts key is string {
  const problem = objectKeyProblem(key, prefix);
  if (problem !== undefined) throw invalidKey(String(key), problem);
}

/**
 * Whether `key` is an object key under `prefix` that the upload handler could have made: it starts with
 * `prefix` (a `/` is added to a non-empty prefix that lacks one, so `uploads` never matches `uploads-old/`),
 * and passes the handler's key checks: at most 1024 bytes of UTF-8, no empty, `.` or `..` segment (so
 * `uploads/../private/x` is not under `uploads/`), no backslash, no control or bidirectional-override
 * character, not under `.upbeam/`. Check ownership with it before reading or deleting a key the browser
 * names: give each user a prefix of their own (`uploads/{userId}/`: `onBeforeUpload` returns a `key` made
 * with {@link defaultObjectKey}) and ask whether the key is under it. Pure: no request is made.
 *
 * @param key - The key the browser sent (anything: a non-string is `false`).
 * @param prefix - The prefix the key must be under, e.g. `uploads/42/`; `''` allows any valid key.
 * @example
 * isKeyUnder('uploads/42/V1StGXR8_Z5jdHi6B-myT/cat.png', 'uploads/42/') // true
 * isKeyUnder('uploads/42/../7/cat.png', 'uploads/42/')                   // false: a ".." segment
 * isKeyUnder('uploads/420/cat.png', 'uploads/42')                        // false: "uploads/42/" is the prefix
 */
export function isKeyUnder(key: unknown, prefix: string): key is string {
  return objectKeyProblem(key, prefix) === undefined;
}

import { nanoid } from 'nanoid';

/** Prefix of default object keys (SPEC 9). */
export const DEFAULT_KEY_PREFIX = 'next-s3-uploads';

/**
 * Characters S3 documents as safe in object keys: letters, digits and `! - _ . * ' ( )`
 * (AWS S3 User Guide, "Naming Amazon S3 objects", safe characters).
 */
const UNSAFE_CHARACTERS = /[^A-Za-z0-9!\-_.*'()]/g;

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
 * The default object key: `next-s3-uploads/{id}/{sanitized file name}` (SPEC 9), where `id` is a fresh
 * nanoid (21 URL-safe characters), so two uploads of the same name never overwrite each other.
 */
export function defaultObjectKey(filename: string): string {
  return `${DEFAULT_KEY_PREFIX}/${nanoid()}/${sanitizeFileName(filename)}`;
}

import { describe, expect, it } from 'vitest';
import { assertValidObjectKey, DEFAULT_KEY_PREFIX, defaultObjectKey, isKeyUnder, MAX_KEY_BYTES, sanitizeFileName, sanitizeFilePath } from './object-key';

describe('sanitizeFileName (SPEC 9: unsafe characters become a space, whitespace collapses to "-")', () => {
  it.each([
    ['photo.jpg', 'photo.jpg'],
    ['my photo (1).jpg', 'my-photo-(1).jpg'],
    ['  spaced   out  .png ', 'spaced-out-.png'],
    ['tab\tand\nnewline.txt', 'tab-and-newline.txt'],
    ["S3-safe_!*'().txt", "S3-safe_!*'().txt"],
    ['a/b\\c.txt', 'a-b-c.txt'],
    ['../../etc/passwd', '..-..-etc-passwd'],
    ['résumé.pdf', 'r-sum-.pdf'],
    ['what?#&=+.txt', 'what-.txt'],
    ['数据.csv', '.csv'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it.each(['', '   ', '..', '.', '???', '\u202e'])('a name with nothing safe left (%j) becomes "file"', (input) => {
    expect(sanitizeFileName(input)).toBe('file');
  });

  it('never keeps a path separator or a control character', () => {
    const nasty = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    expect(sanitizeFileName(nasty)).not.toMatch(/[\/\\\u0000-\u001f\u007f]/);
  });
});

describe('defaultObjectKey', () => {
  it('is next-s3-uploads/{21-character nanoid}/{sanitized name}', () => {
    const key = defaultObjectKey('my photo.jpg');
    expect(DEFAULT_KEY_PREFIX).toBe('next-s3-uploads/');
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/my-photo\.jpg$/);
  });

  it('gives two uploads of the same name different keys', () => {
    expect(defaultObjectKey('a.txt')).not.toBe(defaultObjectKey('a.txt'));
  });
});

describe('assertValidObjectKey', () => {
  it.each([
    ['next-s3-uploads/abc/photo.jpg', 'next-s3-uploads/'],
    ['next-s3-uploads/a/b/c.txt', 'next-s3-uploads'],
    ['anything/at/all.txt', ''],
    ['uploads/résumé 2024.pdf', 'uploads/'],
  ])('accepts %j under %j', (key, prefix) => {
    expect(() => assertValidObjectKey(key, prefix)).not.toThrow();
  });

  it.each([
    ['', ''],
    ['other/x.txt', 'next-s3-uploads/'],
    ['next-s3-uploads-evil/x.txt', 'next-s3-uploads'],
    ['next-s3-uploads/../x.txt', 'next-s3-uploads/'],
    ['next-s3-uploads/a/./x.txt', 'next-s3-uploads/'],
    ['next-s3-uploads//x.txt', 'next-s3-uploads/'],
    ['next-s3-uploads/a/', 'next-s3-uploads/'],
    ['/next-s3-uploads/x', ''],
    ['next-s3-uploads/a\\..\\x', 'next-s3-uploads/'],
    ['next-s3-uploads/a\u0000b', 'next-s3-uploads/'],
    ['next-s3-uploads/a\nb', 'next-s3-uploads/'],
    ['next-s3-uploads/invoice\u202Efdp.exe', 'next-s3-uploads/'],
    ['next-s3-uploads/a\u2066b', 'next-s3-uploads/'],
    [`next-s3-uploads/${'é'.repeat(510)}`, 'next-s3-uploads/'],
  ])('refuses %j under %j with INVALID_OBJECT_KEY (500, logged)', (key, prefix) => {
    expect(() => assertValidObjectKey(key, prefix)).toThrow(expect.objectContaining({ code: 'INVALID_OBJECT_KEY', status: 500 }));
  });

  it('refuses a value that is not a string', () => {
    expect(() => assertValidObjectKey(42, '')).toThrow(/non-empty string/);
  });
});

describe('defaultObjectKey limits', () => {
  it('shortens a very long name to fit 1024 bytes, keeping its end', () => {
    const key = defaultObjectKey(`${'a'.repeat(2000)}.tar.gz`);
    expect(new TextEncoder().encode(key).byteLength).toBe(MAX_KEY_BYTES);
    expect(key.endsWith('aaa.tar.gz')).toBe(true);
    expect(() => assertValidObjectKey(key, DEFAULT_KEY_PREFIX)).not.toThrow();
  });

  it('uses the configured prefix', () => {
    expect(defaultObjectKey('a.txt', 'user-files')).toMatch(/^user-files\/[A-Za-z0-9_-]{21}\/a\.txt$/);
  });
});

describe('defaultObjectKey of a folder file (filename with "/")', () => {
  it.each([
    ['photos/2024/my photo.jpg', 'photos/2024/my-photo.jpg'],
    ['/photos//a.jpg', 'photos/a.jpg'],
    ['../../etc/passwd', 'file/file/etc/passwd'],
    ['a/./b', 'a/file/b'],
    ['a\\b/c', 'a-b/c'],
    ['/', 'file'],
  ])('keeps the folders of %j, each segment sanitized: %j', (filename, expected) => {
    expect(sanitizeFilePath(filename)).toBe(expected);
    const key = defaultObjectKey(filename);
    expect(key).toMatch(new RegExp(`^next-s3-uploads/[A-Za-z0-9_-]{21}/${expected.replace(/[.*()]/g, '\\$&')}$`));
    expect(() => assertValidObjectKey(key, DEFAULT_KEY_PREFIX)).not.toThrow();
  });

  it('shortens a long path within 1024 bytes without an empty segment', () => {
    for (const cut of [0, 1, 2, 3]) {
      const key = defaultObjectKey(`${'d/'.repeat(600 + cut)}a.jpg`);
      expect(new TextEncoder().encode(key).byteLength).toBeLessThanOrEqual(MAX_KEY_BYTES);
      expect(() => assertValidObjectKey(key, DEFAULT_KEY_PREFIX)).not.toThrow();
      expect(key.endsWith('/a.jpg')).toBe(true);
    }
  });
});

describe('isKeyUnder (ownership of a key the browser names)', () => {
  it.each([
    ['uploads/42/V1StGXR8_Z5jdHi6B-myT/cat.png', 'uploads/42/'],
    ['uploads/42/a/b.txt', 'uploads/42'],
    ['anything/at/all.txt', ''],
  ])('%j is under %j', (key, prefix) => {
    expect(isKeyUnder(key, prefix)).toBe(true);
  });

  it.each([
    ['uploads/42/../7/cat.png', 'uploads/42/'],
    ['uploads/42/./x', 'uploads/42/'],
    ['uploads/42//x', 'uploads/42/'],
    ['uploads/42/x/', 'uploads/42/'],
    ['uploads/420/cat.png', 'uploads/42'],
    ['uploads/42', 'uploads/42/'],
    ['uploads/42/a\\..\\..\\7', 'uploads/42/'],
    ['uploads/42/\u0000', 'uploads/42/'],
    ['uploads/42/\u202egnp.exe', 'uploads/42/'],
    [`uploads/42/${'a'.repeat(1024)}`, 'uploads/42/'],
    ['.upbeam/completions/x.json', ''],
    ['', ''],
  ])('%j is not under %j', (key, prefix) => {
    expect(isKeyUnder(key, prefix)).toBe(false);
  });

  it('is false for a value that is not a string', () => {
    expect(isKeyUnder(42, '')).toBe(false);
    expect(isKeyUnder(undefined, '')).toBe(false);
  });
});

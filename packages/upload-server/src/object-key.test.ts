import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_PREFIX, defaultObjectKey, sanitizeFileName } from './object-key';

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

import { describe, expect, it } from 'vitest';
import { checkFile, matchesAccept } from './file-rules';

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('matchesAccept (the accept attribute of <input type="file">)', () => {
  it.each([
    ['image/*', file('a.png', 'image/png'), true],
    ['image/*', file('a.pdf', 'application/pdf'), false],
    ['.PDF, image/png', file('report.pdf', ''), true],
    ['application/pdf', file('a.pdf', 'application/pdf'), true],
    ['', file('a.bin', ''), true],
  ])('%j accepts %o: %s', (accept, input, expected) => {
    expect(matchesAccept(input, accept)).toBe(expected);
  });
});

describe('checkFile', () => {
  it('names the first broken rule', () => {
    expect(checkFile(file('a.png', 'image/png', 100), { maxSize: 50 })?.code).toBe('file-too-large');
    expect(checkFile(file('a.png', 'image/png', 0), { minSize: 1 })?.code).toBe('file-too-small');
    expect(checkFile(file('a.txt', 'text/plain'), { accept: 'image/*' })).toMatchObject({
      code: 'file-invalid-type',
      message: 'a.txt: this type of file is not accepted (image/*).',
    });
    expect(checkFile(file('a.png', 'image/png'), { accept: 'image/*', maxSize: 10 })).toBeUndefined();
  });
});

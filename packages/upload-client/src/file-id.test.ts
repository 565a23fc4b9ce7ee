import { afterEach, describe, expect, it, vi } from 'vitest';
import { urlAlphabet } from 'nanoid';
import { newFileId } from './file-id';

describe('newFileId', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes 21 characters of the URL-safe alphabet, all distinct across many refills of the pool', () => {
    const ids = Array.from({ length: 5_000 }, newFileId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws random bytes once for 128 ids, and never uses a byte twice', () => {
    // Fill the pool with 0, 1, 2, ... so that each id shows which bytes it was made from.
    const draw = vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      const bytes = array as unknown as Uint8Array;
      for (let i = 0; i < bytes.length; i++) bytes[i] = i % 64;
      return array;
    });
    // Use up whatever an earlier test left in the pool, then the whole pool drawn after it: the next id
    // starts a fresh pool.
    while (draw.mock.calls.length === 0) newFileId();
    for (let i = 1; i < 128; i++) newFileId();
    draw.mockClear();
    const ids = Array.from({ length: 256 }, newFileId);
    expect(draw).toHaveBeenCalledTimes(2);
    // 21 bytes an id, taken in order: id k starts at byte 21 k of its pool.
    const expected = (k: number) => Array.from({ length: 21 }, (_, i) => urlAlphabet[(21 * k + i) % 64]).join('');
    expect(ids.slice(0, 3)).toEqual([expected(0), expected(1), expected(2)]);
    expect(ids[128]).toBe(expected(0));
  });
});

import { describe, expect, it } from 'vitest';
import { objectTagging } from './object-tags';

const body = (tags?: unknown) => ({ filename: 'a.png', filetype: 'image/png', _upload: { strategy: 'presigned' as const }, ...(tags === undefined ? {} : { tags }) });

describe('objectTagging', () => {
  it("is '' without tags: an empty x-amz-tagging header is signed", () => {
    expect(objectTagging(undefined, body(), false)).toBe('');
  });

  it("URL-encodes the route's tags, and the request's when allowed (the route's win on a shared key)", () => {
    expect(objectTagging({ kind: 'avatar', 'a b': 'c&d' }, body(), false)).toBe('kind=avatar&a+b=c%26d');
    expect(objectTagging({ kind: 'avatar' }, body([{ Key: 'kind', Value: 'x' }, { Key: 'user', Value: '42' }]), true)).toBe('kind=avatar&user=42');
  });

  it('refuses request tags without allowObjectTagging (403), and malformed or too many tags (400)', () => {
    expect(() => objectTagging(undefined, body([{ Key: 'a', Value: 'b' }]), false)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => objectTagging(undefined, body('a=b'), true)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => objectTagging(undefined, body([{ Key: 1, Value: 'b' }]), true)).toThrow(/array of \{ Key, Value \}/);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ Key: `k${i}`, Value: 'v' }));
    expect(() => objectTagging(undefined, body(eleven), true)).toThrow(/At most 10 tags/);
    expect(() => objectTagging({ ['k'.repeat(129)]: 'v' }, body(), false)).toThrow(/1-128 characters/);
  });
});

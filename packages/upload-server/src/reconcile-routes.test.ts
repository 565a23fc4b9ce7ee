import { describe, expect, it } from 'vitest';
import { isInternalKey, listingPrefixes, ownerOfKey, prefixedRoutes } from './reconcile-routes';

// Which route an object belongs to, read from its key alone (the reconciliation has no request).

describe('prefixedRoutes', () => {
  it("gives each route its own prefix or the handler's, ending in '/'; without routes one default route", () => {
    const routes = prefixedRoutes({ keyPrefix: 'uploads', routes: { avatar: { keyPrefix: 'avatars' }, docs: {} } });
    expect(routes.map(({ name, keyPrefix }) => [name, keyPrefix])).toEqual([
      ['avatar', 'avatars/'],
      ['docs', 'uploads/'],
    ]);
    expect(prefixedRoutes({}).map(({ name, keyPrefix }) => [name, keyPrefix])).toEqual([[undefined, 'next-s3-uploads/']]);
  });
});

describe('listingPrefixes', () => {
  it('lists each key once: sorted, without a prefix that a shorter one in the set starts', () => {
    expect(listingPrefixes(['videos/', 'a/b/', 'a/', 'a/', 'photos/'])).toEqual(['a/', 'photos/', 'videos/']);
    expect(listingPrefixes(['x/', ''])).toEqual(['']);
  });
});

describe('ownerOfKey', () => {
  const routes = prefixedRoutes({ keyPrefix: 'u/', routes: { all: {}, avatars: { keyPrefix: 'u/avatars/' }, a: { keyPrefix: 's/' }, b: { keyPrefix: 's/' } } });
  it('is the route with the longest prefix that starts the key', () => {
    expect(ownerOfKey('u/avatars/1/me.png', routes)).toMatchObject({ route: { name: 'avatars' } });
    expect(ownerOfKey('u/1/doc.pdf', routes)).toMatchObject({ route: { name: 'all' } });
    expect(ownerOfKey('other/1', routes)).toBeUndefined();
  });
  it('is ambiguous between routes of the same prefix', () => {
    expect(ownerOfKey('s/1/x', routes)).toEqual({ ambiguous: ['a', 'b'] });
  });
});

describe('isInternalKey', () => {
  it("is a completion marker or a doctor's probe under the prefix", () => {
    expect(isInternalKey('.upbeam/completions/abc.json', '')).toBe(true);
    expect(isInternalKey('u/upbeam-doctor-x1.txt', 'u/')).toBe(true);
    expect(isInternalKey('u/1/upbeam-doctor-x1.txt', 'u/')).toBe(false);
    expect(isInternalKey('u/1/photo.png', 'u/')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { compileApp } from './app';

// The app a configuration compiles into: one route table, services shared by every route, one onError.

const STORAGE = { accessKeyId: 'key', secretAccessKey: 'secret', bucket: 'bucket', region: 'us-east-1', env: {} };

describe('compileApp', () => {
  it("merges each route's settings over the shared ones, and finds a key's route by its prefix", () => {
    const app = compileApp({ ...STORAGE, keyPrefix: 'uploads/', expiresIn: 60, routes: { avatar: { keyPrefix: 'avatars/', expiresIn: 30 }, docs: {} } });
    expect(app.table.map(({ name, keyPrefix, config }) => [name, keyPrefix, config.expiresIn])).toEqual([
      ['avatar', 'avatars/', 30],
      ['docs', 'uploads/', 60],
    ]);
    expect(app.route('docs')).toBe(app.table[1]);
    const owner = app.ownerOf('avatars/a.png');
    expect(owner && 'route' in owner ? owner.route.name : undefined).toBe('avatar');
  });

  it('gives every route one S3 client and URL signer, and another endpoint its own', () => {
    const app = compileApp({ ...STORAGE, routes: { a: { objectAcl: 'private' }, b: { checksum: false }, c: {} } });
    const storages = app.table.map((route) => app.services.storage(route.services.settings()));
    expect(new Set(storages).size).toBe(1);
    expect(storages[0]).toBe(app.services.storage(app.settings()));
    const other = app.services.storage({ ...app.settings(), endpoint: 'http://127.0.0.1:9', forcePathStyle: true });
    expect(other).not.toBe(storages[0]);
    expect(app.services.sts(app.settings(), undefined)).toBe(app.services.sts(app.table[1]!.services.settings(), undefined));
  });

  it("has one onError: the config's, else the default", () => {
    const onError = () => {};
    expect(compileApp({ ...STORAGE, onError }).onError).toBe(onError);
    expect(compileApp(STORAGE).onError).toBe(compileApp({ ...STORAGE, routes: { a: {} } }).onError);
  });

  it('reads no setting until asked: a missing one fails then, not at compile', () => {
    const app = compileApp({ env: {} });
    expect(() => app.settings()).toThrow(/Missing ENVs/);
  });
});

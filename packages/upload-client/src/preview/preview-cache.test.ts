import { describe, expect, it } from 'vitest';
import { previewCache } from './preview-cache';
import { taskLimit } from './task-limit';

/** A value standing for a bitmap: `closed` once the cache closes it. */
interface Value {
  name: string;
  closed: boolean;
}

/** A cache of at most `keep` idle values, and the values it closed. */
function cacheOf(keep: number) {
  const closed: string[] = [];
  const cache = previewCache<Value>({
    keep,
    close: (value) => {
      value.closed = true;
      closed.push(value.name);
    },
  });
  let makes = 0;
  const make = (name: string) => () => {
    makes += 1;
    return Promise.resolve<Value | null>({ name, closed: false });
  };
  return { cache, closed, make, makes: () => makes };
}

const fileA = { name: 'a' };
const fileB = { name: 'b' };
const fileC = { name: 'c' };

describe('previewCache', () => {
  it('makes one value per file and size, shared by its holders', async () => {
    const { cache, make, makes } = cacheOf(10);
    const first = cache.acquire(fileA, 80, make('a'));
    const second = cache.acquire(fileA, 80, make('a again'));
    expect(await first.made).toBe(await second.made);
    expect(makes()).toBe(1);
    cache.acquire(fileA, 160, make('a large'));
    expect(makes()).toBe(2);
    expect(cache.open).toBe(1);
    expect(cache.size).toBe(2);
  });

  it('keeps a released value (a row scrolled back gets it without a new decode) and closes the oldest beyond `keep`', async () => {
    const { cache, closed, make, makes } = cacheOf(2);
    for (const file of [fileA, fileB, fileC]) {
      const held = cache.acquire(file, 80, make(file.name));
      await held.made;
      held.release();
    }
    expect(closed).toEqual(['a']);
    expect(cache.open).toBe(2);
    const again = cache.acquire(fileB, 80, make('b again'));
    expect((await again.made)?.name).toBe('b');
    expect(makes()).toBe(3);
    // b is held again: not closed while c, then a (made again), pass through the idle list.
    const a = cache.acquire(fileA, 80, make('a again'));
    await a.made;
    a.release();
    expect(closed).toEqual(['a']);
    const d = cache.acquire({}, 80, make('d'));
    await d.made;
    d.release();
    expect(closed).toEqual(['a', 'c']);
  });

  it('never closes a value in use; clear() closes the idle ones now and the held ones on their last release', async () => {
    const { cache, closed, make } = cacheOf(10);
    const held = cache.acquire(fileA, 80, make('a'));
    const idle = cache.acquire(fileB, 80, make('b'));
    await Promise.all([held.made, idle.made]);
    idle.release();
    cache.clear();
    expect(closed).toEqual(['b']);
    expect(cache.size).toBe(0);
    // A new holder makes a new one; the old one closes when let go.
    const fresh = cache.acquire(fileA, 80, make('a2'));
    expect((await fresh.made)?.name).toBe('a2');
    held.release();
    held.release();
    expect(closed).toEqual(['b', 'a']);
    fresh.release();
    cache.clear();
    expect(closed).toEqual(['b', 'a', 'a2']);
    expect(cache.open).toBe(0);
  });

  it('aborts a value no one waits for any more, and closes one made after its last holder left', async () => {
    const { cache, closed } = cacheOf(10);
    let finish: (value: Value) => void = () => {};
    let signal: AbortSignal | undefined;
    const held = cache.acquire(fileA, 80, (given) => {
      signal = given;
      return new Promise<Value | null>((resolve) => (finish = resolve));
    });
    held.release();
    expect(signal?.aborted).toBe(true);
    expect(cache.size).toBe(0);
    finish({ name: 'late', closed: false });
    await held.made;
    expect(closed).toEqual(['late']);
    expect(cache.open).toBe(0);
  });

  it('keeps `null` (a file that gives no preview: not tried again) and forgets a rejected make', async () => {
    const { cache } = cacheOf(10);
    let tries = 0;
    const none = () => {
      tries += 1;
      return Promise.resolve(null);
    };
    const first = cache.acquire(fileA, 80, none);
    expect(await first.made).toBeNull();
    first.release();
    await cache.acquire(fileA, 80, none).made;
    expect(tries).toBe(1);
    const failed = cache.acquire(fileB, 80, () => Promise.reject(new Error('aborted')));
    await expect(failed.made).rejects.toThrow('aborted');
    expect(cache.size).toBe(1);
  });
});

describe('taskLimit', () => {
  it('runs at most `limit` tasks at once, the others in the order asked', async () => {
    const limit = taskLimit(2);
    const started: number[] = [];
    const ends: (() => void)[] = [];
    const results = [0, 1, 2, 3].map((index) =>
      limit.run(() => {
        started.push(index);
        return new Promise<number>((resolve) => ends.push(() => resolve(index)));
      }),
    );
    expect(started).toEqual([0, 1]);
    expect(limit.queued).toBe(2);
    ends[1]!();
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    ends[0]!();
    ends[2]!();
    await Promise.all(results.slice(0, 3));
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    ends[3]!();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(limit.running).toBe(0);
  });

  it('drops a queued task whose signal aborts (it never runs); a thrown task frees its slot', async () => {
    const limit = taskLimit(1);
    let release: () => void = () => {};
    const first = limit.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const dropped = limit.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('scrolled past'));
    await expect(dropped).rejects.toThrow('scrolled past');
    expect(limit.queued).toBe(0);
    const thrown = limit.run(() => {
      throw new Error('sync');
    });
    release();
    await first;
    await expect(thrown).rejects.toThrow('sync');
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
    expect(ran).toBe(false);
  });
});

/**
 * The behaviour every {@link LimitStore} shares, as tests: `limitStoreContract(name, harness)` declares them
 * (vitest's `describe` / `it`) for one store. The memory store runs them (`memory-limit-store.test.ts`), on a
 * clock the test moves and on the real clock; the Redis store runs the same ones on a real redis-server. Not
 * part of the package's build: test code only.
 *
 * Store-agnostic: the tests need only a fresh store per test and the time the store counts by. Without
 * `advance` (a store on a clock the test cannot move, e.g. Redis's), an expired reservation is one reserved with
 * an `expiresAt` already past, and a new window is waited for in real time (windows of 1 s, at most ~2 s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LimitDecision, LimitReservation, LimitStore, UploadLimits } from './limit-store';

/** What the contract needs of one store. */
export interface LimitStoreHarness {
  /** A new store with nothing counted (a new instance, or a fresh key prefix on a shared server). */
  create(): LimitStore | Promise<LimitStore>;
  /** The time the store counts by, in milliseconds since the epoch. @default Date.now */
  now?(): number;
  /** Moves the store's clock on by `ms` (a store on an injected clock); absent: real time is waited for. */
  advance?(ms: number): void | Promise<void>;
  /** Ends what `create` made (closes a connection); called after each test. */
  dispose?(store: LimitStore): void | Promise<void>;
}

/** A window that no test run crosses, but by bad luck once a year: a year, in seconds. */
const LONG_WINDOW = 365 * 86_400;
/** Far enough ahead that no reservation expires during a test, in milliseconds. */
const HOUR_MS = 3_600_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Declares the shared tests of a {@link LimitStore} for `name` (`memoryLimitStore`, `redisLimitStore`). */
export function limitStoreContract(name: string, harness: LimitStoreHarness): void {
  const now = () => (harness.now ? harness.now() : Date.now());
  const made: LimitStore[] = [];
  let ids = 0;

  const create = async () => {
    const store = await harness.create();
    made.push(store);
    return store;
  };
  /** A reservation for `subject` with a new id, held an hour, 0 bytes unless told. */
  const reservation = (limits: UploadLimits, fields: Partial<LimitReservation> = {}): LimitReservation => ({
    subject: 'scope:alice',
    id: `upload-${(ids += 1)}`,
    bytes: 0,
    expiresAt: now() + HOUR_MS,
    limits,
    ...fields,
  });
  /** The decisions of `count` reservations made one after the other. */
  const reserveInTurn = async (store: LimitStore, count: number, make: () => LimitReservation): Promise<LimitDecision[]> => {
    const decisions: LimitDecision[] = [];
    for (let index = 0; index < count; index += 1) decisions.push(await store.reserve(make()));
    return decisions;
  };
  const granted = (decisions: LimitDecision[]) => decisions.filter((decision) => decision.granted).length;
  /**
   * A reservation that has expired by the time the next call is made: one held 1 s and the clock moved past
   * it, or (a clock the test cannot move) one whose `expiresAt` is already past.
   */
  const expiring = async (store: LimitStore, limits: UploadLimits, fields: Partial<LimitReservation> = {}) => {
    const expiresAt = harness.advance ? now() + 1000 : now() - 1;
    const decision = await store.reserve(reservation(limits, { ...fields, expiresAt }));
    if (harness.advance) await harness.advance(1001);
    return decision;
  };
  /** Waits (or moves the clock) into the next window of `windowSeconds`; returns after its start. */
  const nextWindow = async (windowSeconds: number) => {
    const length = windowSeconds * 1000;
    const left = length - (now() % length);
    if (harness.advance) await harness.advance(left + 1);
    else await sleep(left + 20);
  };

  afterEach(async () => {
    for (const store of made.splice(0)) await harness.dispose?.(store);
  });

  describe(`LimitStore contract: ${name}`, () => {
    it('grants preparations up to the max of the window, then refuses with the limit and the seconds to the window end', async () => {
      const store = await create();
      const limits = { preparations: { max: 3, windowSeconds: LONG_WINDOW } };
      const decisions = await reserveInTurn(store, 5, () => reservation(limits));
      expect(decisions.map((decision) => decision.granted)).toEqual([true, true, true, false, false]);
      const refused = decisions[3]!;
      expect(refused).toMatchObject({ granted: false, limit: 'preparations' });
      if (!refused.granted) {
        const windowEnd = (Math.floor(now() / (LONG_WINDOW * 1000)) + 1) * LONG_WINDOW * 1000;
        expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
        expect(refused.retryAfter).toBeLessThanOrEqual(Math.ceil((windowEnd - now()) / 1000) + 1);
        expect(Number.isInteger(refused.retryAfter)).toBe(true);
      }
    });

    it('counts each subject apart', async () => {
      const store = await create();
      const limits = { preparations: { max: 1, windowSeconds: LONG_WINDOW } };
      expect(await store.reserve(reservation(limits, { subject: 'scope:alice' }))).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits, { subject: 'scope:bob' }))).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits, { subject: 'other:alice' }))).toEqual({ granted: true });
      expect((await store.reserve(reservation(limits, { subject: 'scope:alice' }))).granted).toBe(false);
    });

    it('counts bytes per window: a reservation that would pass the max is refused, one that fits exactly is granted', async () => {
      const store = await create();
      const limits = { bytes: { max: 1000, windowSeconds: LONG_WINDOW } };
      expect(await store.reserve(reservation(limits, { bytes: 600 }))).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits, { bytes: 401 }))).toMatchObject({ granted: false, limit: 'bytes' });
      expect(await store.reserve(reservation(limits, { bytes: 400 }))).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits, { bytes: 1 }))).toMatchObject({ granted: false, limit: 'bytes' });
      expect(await store.reserve(reservation(limits, { bytes: 0 }))).toEqual({ granted: true });
    });

    it('counts files per window', async () => {
      const store = await create();
      const limits = { files: { max: 2, windowSeconds: LONG_WINDOW } };
      const decisions = await reserveInTurn(store, 3, () => reservation(limits));
      expect(decisions[2]).toMatchObject({ granted: false, limit: 'files' });
    });

    it('counts nothing for a refused reservation: not its preparation, file or bytes', async () => {
      const store = await create();
      const limits = { preparations: { max: 2, windowSeconds: LONG_WINDOW }, files: { max: 2, windowSeconds: LONG_WINDOW }, bytes: { max: 100, windowSeconds: LONG_WINDOW } };
      expect(await store.reserve(reservation(limits, { bytes: 101 }))).toMatchObject({ granted: false, limit: 'bytes' });
      expect(await store.reserve(reservation(limits, { bytes: 100 }))).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits, { bytes: 0 }))).toEqual({ granted: true });
    });

    it('names the first limit reached in the order preparations, inFlight, files, bytes', async () => {
      const window = { max: 1, windowSeconds: LONG_WINDOW };
      const all = { preparations: window, inFlight: 1, files: window, bytes: { max: 10, windowSeconds: LONG_WINDOW } };
      const store = await create();
      await store.reserve(reservation(all, { bytes: 10 }));
      expect(await store.reserve(reservation(all, { bytes: 10 }))).toMatchObject({ granted: false, limit: 'preparations' });
      const { preparations: _preparations, ...inFlightOn } = all;
      expect(await store.reserve(reservation(inFlightOn, { bytes: 10 }))).toMatchObject({ granted: false, limit: 'inFlight' });
      const { inFlight: _inFlight, ...filesOn } = inFlightOn;
      expect(await store.reserve(reservation(filesOn, { bytes: 10 }))).toMatchObject({ granted: false, limit: 'files' });
      const { files: _files, ...bytesOn } = filesOn;
      expect(await store.reserve(reservation(bytesOn, { bytes: 10 }))).toMatchObject({ granted: false, limit: 'bytes' });
    });

    it('holds an in-flight slot per reservation; retryAfter is the seconds until the first one expires', async () => {
      const store = await create();
      const limits = { inFlight: 2 };
      await store.reserve(reservation(limits, { expiresAt: now() + 90_000 }));
      await store.reserve(reservation(limits, { expiresAt: now() + 600_000 }));
      const refused = await store.reserve(reservation(limits));
      expect(refused).toMatchObject({ granted: false, limit: 'inFlight' });
      if (!refused.granted) {
        expect(refused.retryAfter).toBeGreaterThanOrEqual(60);
        expect(refused.retryAfter).toBeLessThanOrEqual(90);
      }
    });

    it('frees the in-flight slot on settle, on release and on expiry', async () => {
      const store = await create();
      const limits = { inFlight: 1 };
      const first = reservation(limits);
      await store.reserve(first);
      expect((await store.reserve(reservation(limits))).granted).toBe(false);
      await store.settle(first.id, 10);
      const second = reservation(limits);
      expect(await store.reserve(second)).toEqual({ granted: true });
      await store.release(second.id);
      expect(await expiring(store, limits)).toEqual({ granted: true });
      expect(await store.reserve(reservation(limits))).toEqual({ granted: true });
    });

    it('settles to the stored size: the reserved bytes become the size in their window, and it answers what was reserved', async () => {
      const store = await create();
      const limits = { bytes: { max: 1000, windowSeconds: LONG_WINDOW } };
      const first = reservation(limits, { bytes: 800 });
      await store.reserve(first);
      expect((await store.reserve(reservation(limits, { bytes: 300 }))).granted).toBe(false);
      expect(await store.settle(first.id, 700)).toEqual({ reserved: 800 });
      expect(await store.reserve(reservation(limits, { bytes: 300 }))).toEqual({ granted: true });
      expect((await store.reserve(reservation(limits, { bytes: 1 }))).granted).toBe(false);
    });

    it('settles to a stored size larger than reserved too (counted, even past the max)', async () => {
      const store = await create();
      const limits = { bytes: { max: 1000, windowSeconds: LONG_WINDOW } };
      const first = reservation(limits, { bytes: 100 });
      await store.reserve(first);
      expect(await store.settle(first.id, 1200)).toEqual({ reserved: 100 });
      // Over the max now: even an empty file is refused until the window ends.
      expect(await store.reserve(reservation(limits, { bytes: 0 }))).toMatchObject({ granted: false, limit: 'bytes' });
    });

    it('settles once: a second settle, one after release, or one of an unknown id changes nothing and answers undefined', async () => {
      const store = await create();
      const limits = { bytes: { max: 1000, windowSeconds: LONG_WINDOW } };
      const first = reservation(limits, { bytes: 500 });
      await store.reserve(first);
      expect(await store.settle(first.id, 500)).toEqual({ reserved: 500 });
      expect(await store.settle(first.id, 0)).toBeUndefined();
      await store.release(first.id);
      const released = reservation(limits, { bytes: 200 });
      await store.reserve(released);
      await store.release(released.id);
      expect(await store.settle(released.id, 900)).toBeUndefined();
      expect(await store.settle('never-reserved', 900)).toBeUndefined();
      // 500 settled and nothing else counted: 500 more fit, 501 do not.
      expect((await store.reserve(reservation(limits, { bytes: 501 }))).granted).toBe(false);
      expect(await store.reserve(reservation(limits, { bytes: 500 }))).toEqual({ granted: true });
    });

    it('gives back the bytes and the file on release, not the preparation; a second release gives back nothing more', async () => {
      const store = await create();
      const window = (max: number) => ({ max, windowSeconds: LONG_WINDOW });
      const limits = { preparations: window(2), files: window(1), bytes: window(100) };
      const first = reservation(limits, { bytes: 100 });
      await store.reserve(first);
      expect(await store.reserve(reservation(limits, { bytes: 1 }))).toMatchObject({ granted: false, limit: 'files' });
      await store.release(first.id);
      await store.release(first.id);
      const second = reservation(limits, { bytes: 100 });
      expect(await store.reserve(second)).toEqual({ granted: true });
      // A double release must not have made room for a second file or 100 more bytes.
      expect(await store.reserve(reservation({ files: window(1) }))).toMatchObject({ granted: false, limit: 'files' });
      expect(await store.reserve(reservation({ bytes: window(100) }, { bytes: 1 }))).toMatchObject({ granted: false, limit: 'bytes' });
      // Two preparations were granted (the refused one is not counted, the released one is): a third is refused.
      expect(await store.reserve(reservation(limits))).toMatchObject({ granted: false, limit: 'preparations' });
    });

    it('gives back the bytes and the file of an expired reservation; settling it after expiry counts nothing', async () => {
      const store = await create();
      const window = (max: number) => ({ max, windowSeconds: LONG_WINDOW });
      const limits = { files: window(1), bytes: window(100), inFlight: 1 };
      const expired = reservation(limits, { bytes: 100 });
      expect(await expiring(store, limits, expired)).toEqual({ granted: true });
      const next = reservation(limits, { bytes: 100 });
      expect(await store.reserve(next)).toEqual({ granted: true });
      expect(await store.settle(expired.id, 100)).toBeUndefined();
      await store.release(expired.id);
      // Only `next` is counted: no room for a file, a byte or a slot.
      expect(await store.reserve(reservation({ files: window(1) }))).toMatchObject({ granted: false, limit: 'files' });
      expect(await store.reserve(reservation({ bytes: window(100) }, { bytes: 1 }))).toMatchObject({ granted: false, limit: 'bytes' });
      expect(await store.reserve(reservation({ inFlight: 1 }))).toMatchObject({ granted: false, limit: 'inFlight' });
    });

    it('keeps the reservation of an upload without limits, so that it settles and releases', async () => {
      const store = await create();
      const first = reservation({}, { bytes: 42 });
      expect(await store.reserve(first)).toEqual({ granted: true });
      expect(await store.settle(first.id, 40)).toEqual({ reserved: 42 });
      const second = reservation({}, { bytes: 7 });
      await store.reserve(second);
      await store.release(second.id);
      expect(await store.settle(second.id, 7)).toBeUndefined();
    });

    it('starts each window anew: counts of the window before do not count', async () => {
      const store = await create();
      const windowSeconds = 1;
      const limits = { preparations: { max: 1, windowSeconds }, bytes: { max: 10, windowSeconds } };
      // Start early in a window, so that both reservations below fall into it.
      await nextWindow(windowSeconds);
      expect(await store.reserve(reservation(limits, { bytes: 10 }))).toEqual({ granted: true });
      const refused = await store.reserve(reservation(limits, { bytes: 10 }));
      expect(refused).toMatchObject({ granted: false, limit: 'preparations' });
      if (!refused.granted) expect(refused.retryAfter).toBe(1);
      await nextWindow(windowSeconds);
      expect(await store.reserve(reservation(limits, { bytes: 10 }))).toEqual({ granted: true });
    });

    it('settles a reservation of an ended window without touching the new window', async () => {
      const store = await create();
      const windowSeconds = 1;
      const limits = { bytes: { max: 10, windowSeconds } };
      await nextWindow(windowSeconds);
      const old = reservation(limits, { bytes: 10 });
      await store.reserve(old);
      await nextWindow(windowSeconds);
      expect(await store.reserve(reservation(limits, { bytes: 5 }))).toEqual({ granted: true });
      // Settled (still held: it expires in an hour), its bytes belong to the window that reserved them.
      expect(await store.settle(old.id, 0)).toEqual({ reserved: 10 });
      expect((await store.reserve(reservation(limits, { bytes: 6 }))).granted).toBe(false);
      expect(await store.reserve(reservation(limits, { bytes: 5 }))).toEqual({ granted: true });
    });

    it('is atomic: of 40 reservations at once, exactly the max is granted and bytes never pass theirs', async () => {
      const store = await create();
      const window = (max: number) => ({ max, windowSeconds: LONG_WINDOW });
      const byCount = await Promise.all(Array.from({ length: 40 }, () => store.reserve(reservation({ preparations: window(7) }, { subject: 'scope:count' }))));
      expect(granted(byCount)).toBe(7);
      const bySlots = await Promise.all(Array.from({ length: 40 }, () => store.reserve(reservation({ inFlight: 5 }, { subject: 'scope:slots' }))));
      expect(granted(bySlots)).toBe(5);
      const byBytes = await Promise.all(Array.from({ length: 40 }, () => store.reserve(reservation({ bytes: window(1000) }, { subject: 'scope:bytes', bytes: 300 }))));
      expect(granted(byBytes)).toBe(3);
      expect(byBytes.filter((decision) => !decision.granted).every((decision) => !decision.granted && decision.limit === 'bytes')).toBe(true);
    });
  });
}

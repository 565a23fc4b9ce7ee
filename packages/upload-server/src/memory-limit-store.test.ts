import { describe, expect, it } from 'vitest';
import { limitStoreContract } from './limit-store.contract';
import { memoryLimitStore } from './memory-limit-store';

// On a clock the test moves: windows and expiry without waiting.
let clock = Date.UTC(2026, 10, 29, 12, 0, 0);
limitStoreContract('memoryLimitStore, on a moved clock', {
  create: () => memoryLimitStore({ now: () => clock }),
  now: () => clock,
  advance: (ms) => {
    clock += ms;
  },
});

// On the real clock, as a store whose clock the test cannot move (Redis's) runs the contract.
limitStoreContract('memoryLimitStore, on the real clock', { create: () => memoryLimitStore() });

describe('memoryLimitStore', () => {
  it('aligns windows to the epoch: a day starts at 00:00 UTC', async () => {
    let now = Date.UTC(2026, 10, 29, 23, 59, 0);
    const store = memoryLimitStore({ now: () => now });
    const limits = { files: { max: 1, windowSeconds: 86_400 } };
    const reserve = (id: string) => store.reserve({ subject: 's', id, bytes: 0, expiresAt: now + 1000, limits });
    expect(await reserve('a')).toEqual({ granted: true });
    expect(await reserve('b')).toEqual({ granted: false, limit: 'files', retryAfter: 60 });
    now = Date.UTC(2026, 10, 30, 0, 0, 0);
    expect(await reserve('c')).toEqual({ granted: true });
  });

  it('forgets ended windows and expired reservations (memory stays bounded)', async () => {
    let now = 0;
    const store = memoryLimitStore({ now: () => now });
    const limits = { bytes: { max: 10, windowSeconds: 1 }, inFlight: 1 };
    // 3,000 subjects, each reserving once and never coming back, a second apart.
    for (let index = 0; index < 3000; index += 1) {
      now += 1000;
      await store.reserve({ subject: `s${index}`, id: `u${index}`, bytes: 10, expiresAt: now + 500, limits });
    }
    // Every reservation but the latest ones expired and was swept: settling an old one finds nothing.
    expect(await store.settle('u0', 10)).toBeUndefined();
    expect(await store.settle('u2999', 10)).toEqual({ reserved: 10 });
  });

  it('holds one reservation per id: the same id reserved again replaces the first', async () => {
    const store = memoryLimitStore();
    const limits = { inFlight: 2 };
    const reserve = () => store.reserve({ subject: 's', id: 'users/42/avatar', bytes: 5, expiresAt: Date.now() + 60_000, limits });
    await reserve();
    await reserve();
    expect(await store.settle('users/42/avatar', 5)).toEqual({ reserved: 5 });
    expect(await store.settle('users/42/avatar', 5)).toBeUndefined();
  });
});

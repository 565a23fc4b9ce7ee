import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { createClock } from './clock';
import { createCredentialKeeper, REFRESH_WINDOW_MS } from './credentials';

const T0 = Date.parse('2026-11-23T07:00:00Z');
const HOUR = 3_600_000;

/** A temporary-token answer issued at `issuedAt` (server time), valid one hour. */
function answer(name: string, issuedAt: number, extra: Partial<TemporaryTokenUploadResponse> = {}): TemporaryTokenUploadResponse {
  return {
    key: 'uploads/file.bin',
    bucket: 'bucket',
    region: 'us-east-1',
    ticket: `ticket-${name}`,
    serverTime: new Date(issuedAt).toISOString(),
    token: {
      Credentials: {
        AccessKeyId: `AK-${name}`,
        SecretAccessKey: 'secret',
        SessionToken: 'token',
        Expiration: new Date(issuedAt + HOUR).toISOString(),
      },
    },
    ...extra,
  };
}

/**
 * A keeper on a browser clock the test moves, with a stub of the endpoint's `_upload.renew` (the real one
 * is exercised against radosgw in test/token-session-radosgw.test.ts) that answers at server time `server()`.
 */
function setUp(first = answer('1', T0), options: { skew?: number; failing?: boolean } = {}) {
  let browser = T0;
  const skew = options.skew ?? 0;
  const tickets: string[] = [];
  const stubRenew = async (ticket: string) => {
    tickets.push(ticket);
    if (options.failing) throw new Error('endpoint down');
    return answer(String(tickets.length + 1), browser + skew);
  };
  const clock = createClock(() => browser);
  const keeper = createCredentialKeeper(first, stubRenew, clock);
  return { keeper, clock, tickets, move: (to: number) => (browser = to) };
}

describe('createCredentialKeeper', () => {
  it('renews once the credentials expire within 60 s (SPEC 9 refresh window), not before', async () => {
    expect(REFRESH_WINDOW_MS).toBe(60_000);
    const { keeper, tickets, move } = setUp();
    move(T0 + HOUR - REFRESH_WINDOW_MS - 1);
    expect((await keeper.fresh()).token.Credentials.AccessKeyId).toBe('AK-1');
    move(T0 + HOUR - REFRESH_WINDOW_MS);
    expect((await keeper.fresh()).token.Credentials.AccessKeyId).toBe('AK-2');
    expect(tickets).toEqual(['ticket-1']);
    // The renewed credentials last another hour from then.
    expect((await keeper.fresh()).token.Credentials.AccessKeyId).toBe('AK-2');
    expect(keeper.current.ticket).toBe('ticket-2');
  });

  it('shares one renewal between concurrent callers', async () => {
    const { keeper, tickets, move } = setUp();
    move(T0 + HOUR - 1000);
    const answers = await Promise.all([keeper.fresh(), keeper.fresh(), keeper.fresh()]);
    expect(tickets).toEqual(['ticket-1']);
    expect(new Set(answers).size).toBe(1);
  });

  it('reads the expiration on the corrected clock: a browser 10 minutes behind still renews in time', async () => {
    // Issued at server time T0 + 10 min while the browser reads T0; expires at T0 + 70 min server time.
    const { keeper, tickets, move } = setUp(answer('1', T0 + 10 * 60_000));
    // The browser's own clock would see 11 minutes left; corrected, 60 seconds.
    move(T0 + HOUR - REFRESH_WINDOW_MS);
    await keeper.fresh();
    expect(tickets).toEqual(['ticket-1']);
  });

  it('never renews without a ticket (an older server): its credentials last their hour', async () => {
    const { keeper, tickets, move } = setUp(answer('1', T0, { ticket: undefined }));
    move(T0 + 2 * HOUR);
    expect((await keeper.fresh()).token.Credentials.AccessKeyId).toBe('AK-1');
    expect(keeper.requestRenewal({ clock: false })).toBe(false);
    expect(tickets).toEqual([]);
  });

  it('signs on with credentials still valid when a renewal fails; throws once they have expired', async () => {
    const { keeper, tickets, move } = setUp(answer('1', T0), { failing: true });
    move(T0 + HOUR - 30_000);
    expect((await keeper.fresh()).token.Credentials.AccessKeyId).toBe('AK-1');
    move(T0 + HOUR);
    await expect(keeper.fresh()).rejects.toThrow('endpoint down');
    expect(tickets).toEqual(['ticket-1', 'ticket-1']);
  });

  it('renews on request (storage said ExpiredToken) and then adopts the server time when asked to', async () => {
    const { keeper, clock, tickets } = setUp(answer('1', T0), { skew: 2 * 60_000 });
    expect(keeper.requestRenewal({ clock: false })).toBe(true);
    await keeper.fresh();
    expect(tickets).toEqual(['ticket-1']);
    // 2 minutes off: under the threshold, left alone...
    expect(clock.now()).toBe(T0);
    // ...unless storage refused the time and gave none of its own.
    keeper.requestRenewal({ clock: true });
    await keeper.fresh();
    expect(clock.now()).toBe(T0 + 2 * 60_000);
  });

  it('parts refused ExpiredToken while a renewal is on its way wait for it, no second renewal', async () => {
    const { keeper, tickets } = setUp();
    keeper.requestRenewal({ clock: false });
    const renewing = keeper.fresh();
    expect(keeper.requestRenewal({ clock: false })).toBe(true);
    await renewing;
    await keeper.fresh();
    expect(tickets).toEqual(['ticket-1']);
  });

  it('refuses a renewal for another object or without credentials', async () => {
    let next: unknown;
    const clock = createClock(() => T0);
    const keeper = createCredentialKeeper(answer('1', T0), async () => next as TemporaryTokenUploadResponse, clock);
    next = answer('2', T0, { key: 'uploads/other.bin' });
    keeper.requestRenewal({ clock: false });
    await expect(keeper.fresh()).rejects.toMatchObject({ code: 'INVALID_PREPARE_RESPONSE' });
    next = { ...answer('2', T0), token: {} };
    keeper.requestRenewal({ clock: false });
    await expect(keeper.fresh()).rejects.toMatchObject({ code: 'INVALID_PREPARE_RESPONSE' });
    expect(keeper.current.token.Credentials.AccessKeyId).toBe('AK-1');
  });
});

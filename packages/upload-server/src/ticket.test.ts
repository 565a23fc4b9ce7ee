import { describe, expect, it } from 'vitest';
import { createMultipartTickets } from './multipart-upload';
import { handlerScope } from './hmac';
import { createTickets, TICKET_TTL_SECONDS } from './ticket';

const SCOPE = { scope: handlerScope('b', 'next-s3-uploads/') };

const fields = {
  bucket: 'b',
  key: 'next-s3-uploads/a/file.bin',
  uploadId: 'upload-1',
  contentType: 'application/octet-stream',
  filesize: 12 * 1024 * 1024,
  partSize: 5 * 1024 * 1024,
  partCount: 3,
};

/** Changes the payload of a ticket and keeps its signature. */
function tamper(ticket: string, change: (payload: Record<string, unknown>) => void): string {
  const [payload, signature] = ticket.split('.');
  const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  change(decoded);
  return `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
}

describe('tickets (HMAC-SHA-256, stateless)', () => {
  it('verifies its own ticket and gives back every field, valid 24 hours', async () => {
    const tickets = createMultipartTickets('server-secret', SCOPE);
    const { ticket, expiresAt } = await tickets.issue(fields);
    const verified = await tickets.verify(ticket);
    expect(verified).toEqual({ ...fields, expiresAt });
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan((TICKET_TTL_SECONDS - 5) * 1000);
    expect(TICKET_TTL_SECONDS).toBe(86_400);
  });

  it('is verified by another instance with the same secret (no server state)', async () => {
    const { ticket } = await createMultipartTickets('server-secret', SCOPE).issue(fields);
    await expect(createMultipartTickets('server-secret', SCOPE).verify(ticket)).resolves.toMatchObject(fields);
  });

  it.each([
    ['key', (p: Record<string, unknown>) => (p.key = 'next-s3-uploads/other/file.bin')],
    ['upload id', (p: Record<string, unknown>) => (p.uploadId = 'upload-2')],
    ['file size', (p: Record<string, unknown>) => (p.filesize = 10 ** 12)],
    ['part size', (p: Record<string, unknown>) => (p.partSize = 6 * 1024 * 1024)],
    ['expiry', (p: Record<string, unknown>) => (p.exp = Number(p.exp) + 3600)],
  ])('refuses a ticket whose %s was changed (403 INVALID_TICKET)', async (_, change) => {
    const tickets = createMultipartTickets('server-secret', SCOPE);
    const { ticket } = await tickets.issue(fields);
    await expect(tickets.verify(tamper(ticket, change))).rejects.toMatchObject({ code: 'INVALID_TICKET', status: 403 });
  });

  it.each(['', 'x', 'a.b', '.', 'a.b.c', `${'A'.repeat(5000)}.x`, 'eyJ9.!!!!'])('refuses a forged ticket %j', async (forged) => {
    await expect(createMultipartTickets('s', SCOPE).verify(forged)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });

  it('refuses a ticket signed with another secret, and one of another kind', async () => {
    const { ticket } = await createMultipartTickets('other-secret', SCOPE).issue(fields);
    await expect(createMultipartTickets('server-secret', SCOPE).verify(ticket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
    const renew = createTickets('server-secret', 'renew', (f) => f, SCOPE);
    const { ticket: renewTicket } = await renew.issue({ key: fields.key });
    await expect(createMultipartTickets('server-secret', SCOPE).verify(renewTicket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });

  it('refuses an expired ticket (403 TICKET_EXPIRED)', async () => {
    let now = Date.now();
    const tickets = createMultipartTickets('s', { ...SCOPE, now: () => now });
    const { ticket } = await tickets.issue(fields);
    now += (TICKET_TTL_SECONDS + 1) * 1000;
    await expect(tickets.verify(ticket)).rejects.toMatchObject({ code: 'TICKET_EXPIRED', status: 403 });
  });

  it('refuses a validly signed ticket whose fields do not fit (defence in depth)', async () => {
    const loose = createTickets('s', 'multipart', (f) => f, SCOPE);
    const { ticket } = await loose.issue({ ...fields, partSize: 'big' });
    await expect(createMultipartTickets('s', SCOPE).verify(ticket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });

  it('refuses a ticket of another handler with the same secret (other key prefix or bucket)', async () => {
    const { ticket } = await createMultipartTickets('server-secret', SCOPE).issue(fields);
    const admin = createMultipartTickets('server-secret', { scope: handlerScope('b', 'admin/') });
    await expect(admin.verify(ticket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
    const otherBucket = createMultipartTickets('server-secret', { scope: handlerScope('c', 'next-s3-uploads/') });
    await expect(otherBucket.verify(ticket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });

  it('ends a ticket at notAfter when that is sooner than 24 hours', async () => {
    const now = Date.now();
    const tickets = createMultipartTickets('s', { ...SCOPE, now: () => now });
    const notAfter = Math.floor(now / 1000) + 60;
    const { expiresAt } = await tickets.issue(fields, notAfter);
    expect(expiresAt.getTime()).toBe(notAfter * 1000);
    const later = await tickets.issue(fields, Math.floor(now / 1000) + 10 * TICKET_TTL_SECONDS);
    expect(later.expiresAt.getTime()).toBe((Math.floor(now / 1000) + TICKET_TTL_SECONDS) * 1000);
  });
});

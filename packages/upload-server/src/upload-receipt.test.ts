import { describe, expect, it } from 'vitest';
import { handlerScope } from './hmac';
import { createReceipts, RECEIPT_TTL_SECONDS } from './upload-receipt';

const SCOPE = { scope: handlerScope('b', 'uploads/') };

describe('upload receipts', () => {
  it('verifies a receipt for its key only', async () => {
    const receipts = createReceipts('server-secret', SCOPE);
    const receipt = await receipts.issue('uploads/a.bin');
    await expect(receipts.verify('uploads/a.bin', receipt)).resolves.toBeUndefined();
    await expect(receipts.verify('uploads/b.bin', receipt)).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  });

  it.each(['', 'x', '123.', '.abc', 'NaN.abc', '99999999999.AAAA'])('refuses a forged receipt %j', async (forged) => {
    await expect(createReceipts('s', SCOPE).verify('k', forged)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('refuses a receipt signed with another secret, or one that has expired', async () => {
    const receipt = await createReceipts('other-secret', SCOPE).issue('k');
    await expect(createReceipts('server-secret', SCOPE).verify('k', receipt)).rejects.toThrow('not valid');
    let now = Date.now();
    const clock = createReceipts('s', { ...SCOPE, now: () => now });
    const old = await clock.issue('k');
    now += (RECEIPT_TTL_SECONDS + 1) * 1000;
    await expect(clock.verify('k', old)).rejects.toThrow('expired');
  });

  it("refuses another handler's receipt: same secret and key, other key prefix or bucket", async () => {
    const receipt = await createReceipts('server-secret', SCOPE).issue('uploads/a.bin');
    const admin = createReceipts('server-secret', { scope: handlerScope('b', 'admin/') });
    await expect(admin.verify('uploads/a.bin', receipt)).rejects.toThrow('not valid');
    const otherBucket = createReceipts('server-secret', { scope: handlerScope('c', 'uploads/') });
    await expect(otherBucket.verify('uploads/a.bin', receipt)).rejects.toThrow('not valid');
  });

  it('ends a receipt at notAfter when that is sooner', async () => {
    let now = Date.now();
    const clock = createReceipts('s', { ...SCOPE, now: () => now });
    const receipt = await clock.issue('k', Math.floor(now / 1000) + 60);
    now += 61_000;
    await expect(clock.verify('k', receipt)).rejects.toThrow('expired');
  });

  it('carries a context, signed: it comes back as issued; another context, or none, is refused', async () => {
    const receipts = createReceipts('server-secret', SCOPE);
    const receipt = await receipts.issue('k', undefined, '{"userId":"u1"}');
    await expect(receipts.verify('k', receipt)).resolves.toBe('{"userId":"u1"}');
    const [expiry, signature] = receipt.split('.');
    const other = `${expiry}.${signature}.${Buffer.from('{"userId":"u2"}').toString('base64url')}`;
    for (const forged of [other, `${expiry}.${signature}`, `${receipt}.x`, `${expiry}.${signature}.`, `${expiry}.${signature}.%%`]) {
      await expect(receipts.verify('k', forged)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });

  it('refuses a receipt whose declared size was changed, added or removed (the size is signed)', async () => {
    const receipts = createReceipts('server-secret', SCOPE);
    const sized = await receipts.issue('k', undefined, undefined, 1000);
    await expect(receipts.open('k', sized)).resolves.toMatchObject({ size: 1000 });
    const [first = '', signature = ''] = sized.split('.');
    const expiry = first.split('-')[0];
    const plain = await receipts.issue('k');
    const [, plainSignature = ''] = plain.split('.');
    for (const forged of [`${expiry}-999999.${signature}`, `${expiry}.${signature}`, `${expiry}-1000.${plainSignature}`]) {
      await expect(receipts.open('k', forged)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });
});

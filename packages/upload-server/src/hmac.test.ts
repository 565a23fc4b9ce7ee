import { describe, expect, it } from 'vitest';
import { createHmac, fromBase64url } from './hmac';

// On Node, createHmac signs with node:crypto; the worker build signs with WebCrypto (test/runtimes.test.ts runs
// it on workerd). Here WebCrypto, called directly, is the reference: both must give the same signatures (the
// wire format of receipts and tickets) and accept each other's.
const SECRET = 'secret-access-key';
const SCOPE = 'bucket\nuploads/';

async function webCryptoKey(purpose: string, scope: string) {
  const material = new TextEncoder().encode(`upbeam-${purpose}\n${JSON.stringify(scope)}\n${SECRET}`);
  return crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

describe('createHmac', () => {
  const text = `1767225600-2345678\nuploads/holiday photo ü (1).jpg\n{"album":"été"}`;

  it("signs as WebCrypto does (base64url, 43 characters), and each accepts the other's signatures", async () => {
    const hmac = createHmac(SECRET, 'receipt', SCOPE);
    const key = await webCryptoKey('receipt', SCOPE);
    const signature = await hmac.sign(text);
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text)));
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fromBase64url(signature)).toEqual(expected);
    expect(await crypto.subtle.verify('HMAC', key, fromBase64url(signature)!, new TextEncoder().encode(text))).toBe(true);
    expect(await hmac.verify(text, signature)).toBe(true);
  });

  it('refuses another text, another purpose or scope, an altered, shortened or lengthened signature, and what is not base64url', async () => {
    const hmac = createHmac(SECRET, 'receipt', SCOPE);
    const signature = await hmac.sign(text);
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await hmac.verify(`${text} `, signature)).toBe(false);
    expect(await createHmac(SECRET, 'multipart-ticket', SCOPE).verify(text, signature)).toBe(false);
    expect(await createHmac(SECRET, 'receipt', 'bucket\nother/').verify(text, signature)).toBe(false);
    expect(await hmac.verify(text, flipped)).toBe(false);
    expect(await hmac.verify(text, signature.slice(0, 42))).toBe(false);
    expect(await hmac.verify(text, `${signature}AAAA`)).toBe(false);
    expect(await hmac.verify(text, '')).toBe(false);
    expect(await hmac.verify(text, `${signature.slice(0, 42)}=`)).toBe(false);
  });
});

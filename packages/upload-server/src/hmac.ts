/**
 * HMAC-SHA-256 with WebCrypto (any runtime: Node, workers, Deno, Bun), keyed from the server's secret access
 * key and a purpose, so that receipts, multipart tickets and renew tickets never verify as one another and
 * the secret itself never signs anything a browser sees.
 */

const encoder = new TextEncoder();

/** Signs texts and checks signatures, for one purpose. Signatures are base64url (43 characters). */
export interface Hmac {
  sign(text: string): Promise<string>;
  /**
   * True when `signature` is this key's signature of `text`. The comparison is WebCrypto's `verify`, which
   * compares the whole MAC in constant time (Node: `CRYPTO_memcmp`): how long it takes tells nothing about
   * how many leading bytes were right. Anything that is not base64url is simply false.
   */
  verify(text: string, signature: string): Promise<boolean>;
}

/** Unpadded base64url of bytes (RFC 4648 section 5). */
export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The bytes of unpadded base64url text, or undefined when it is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/**
 * An HMAC-SHA-256 key for `purpose`, derived from the server's secret as the key bytes
 * `upbeam-{purpose}\n{secret}` (distinct purposes give unrelated keys).
 */
export function createHmac(secret: string, purpose: string): Hmac {
  const key = crypto.subtle.importKey('raw', encoder.encode(`upbeam-${purpose}\n${secret}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return {
    async sign(text) {
      return base64url(await crypto.subtle.sign('HMAC', await key, encoder.encode(text)));
    },
    async verify(text, signature) {
      const bytes = fromBase64url(signature);
      if (bytes === undefined) return false;
      return crypto.subtle.verify('HMAC', await key, bytes, encoder.encode(text));
    },
  };
}

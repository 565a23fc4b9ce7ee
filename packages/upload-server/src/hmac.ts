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
 * An HMAC-SHA-256 key for `purpose` within `scope`, derived from the server's secret as the key bytes
 * `upbeam-{purpose}\n{JSON scope}\n{secret}`: distinct purposes, or distinct scopes, give unrelated keys.
 * The scope is the handler that signs ({@link handlerScope}), so that two handlers sharing credentials
 * never accept each other's receipts or tickets.
 */
export function createHmac(secret: string, purpose: string, scope = ''): Hmac {
  const material = encoder.encode(`upbeam-${purpose}\n${JSON.stringify(scope)}\n${secret}`);
  const key = crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, [
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

/**
 * What tells one handler from another that shares its credentials: the bucket and the key prefix its keys
 * live under (one prefix, one set of rules and hooks), and the route of a handler with routes. Receipts and
 * tickets are signed within it, so another handler or another route refuses them. A handler without routes
 * keeps the scope it had before routes.
 */
export function handlerScope(bucket: string, keyPrefix: string, route?: string): string {
  return route === undefined ? `${bucket}\n${keyPrefix}` : `${bucket}\n${keyPrefix}\n${route}`;
}

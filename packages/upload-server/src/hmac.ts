/**
 * HMAC-SHA-256 on any runtime, keyed from the server's secret access key and a purpose, so that receipts,
 * multipart tickets and renew tickets never verify as one another and the secret itself never signs anything a
 * browser sees. The runtime's built-in `node:crypto` where it has one (Node, Bun, Deno: synchronous, about
 * 3.5 µs a signature on Node 20), else WebCrypto (the worker build; on Node 20 about 48 µs, a job run on another
 * thread). Both give the same signatures.
 */
import { builtinCrypto } from './builtin-crypto';

const encoder = new TextEncoder();

/** Signs texts and checks signatures, for one purpose. Signatures are base64url (43 characters). */
export interface Hmac {
  sign(text: string): Promise<string>;
  /**
   * True when `signature` is this key's signature of `text`. The whole MAC is compared in constant time
   * (`node:crypto`'s `timingSafeEqual`, or WebCrypto's `verify`): how long it takes tells nothing about how
   * many leading bytes were right. Anything that is not base64url of 32 bytes is simply false.
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
  const node = builtinCrypto();
  return node ? nodeHmac(node, material) : webCryptoHmac(material);
}

/** {@link Hmac} on `node:crypto`: one-shot, synchronous, the text signed as it is (no `TextEncoder`). */
function nodeHmac({ createHmac, timingSafeEqual }: typeof import('node:crypto'), key: Uint8Array): Hmac {
  const mac = (text: string) => createHmac('sha256', key).update(text);
  return {
    sign: async (text) => mac(text).digest('base64url'),
    async verify(text, signature) {
      const bytes = fromBase64url(signature);
      // The length is no secret: a MAC is always 32 bytes, and timingSafeEqual throws on unequal lengths.
      return bytes !== undefined && bytes.length === 32 && timingSafeEqual(mac(text).digest(), bytes);
    },
  };
}

/** {@link Hmac} on WebCrypto (workers, edge runtimes): `verify` compares in constant time. */
function webCryptoHmac(material: Uint8Array<ArrayBuffer>): Hmac {
  const key = crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
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

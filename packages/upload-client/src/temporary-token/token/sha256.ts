/**
 * SHA-256 and HMAC-SHA-256 for the SigV4 signer, with the browser's own WebCrypto (`crypto.subtle`): no
 * hashing code is downloaded. The signer hashes only short texts (the canonical request, the string to
 * sign, the signing key's steps): the file's bytes are never hashed (`UNSIGNED-PAYLOAD`).
 */

/** What the signer hands to {@link WebCryptoSha256}: text (UTF-8) or bytes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

const encoder = new TextEncoder();

function toBytes(data: SourceData): Uint8Array<ArrayBuffer> {
  if (typeof data === 'string') return encoder.encode(data);
  const view = ArrayBuffer.isView(data) ? data : new Uint8Array(data);
  // A copy: WebCrypto wants an ArrayBuffer of its own, and the caller may reuse its buffer.
  return new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer);
}

/**
 * A `Checksum` (the `@smithy/types` interface `@smithy/signature-v4` takes as `sha256`): SHA-256 of what
 * `update` was given, or its HMAC-SHA-256 when constructed with a secret.
 */
export class WebCryptoSha256 {
  readonly #secret: Uint8Array<ArrayBuffer> | undefined;
  #chunks: Uint8Array<ArrayBuffer>[] = [];

  constructor(secret?: SourceData) {
    this.#secret = secret === undefined ? undefined : toBytes(secret);
  }

  update(data: SourceData): void {
    this.#chunks.push(toBytes(data));
  }

  /** The 32-byte digest (or HMAC) of everything given to `update` since construction or `reset`. */
  async digest(): Promise<Uint8Array> {
    const data = new Uint8Array(this.#chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
    let offset = 0;
    for (const chunk of this.#chunks) {
      data.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const { subtle } = globalThis.crypto;
    if (!this.#secret) return new Uint8Array(await subtle.digest('SHA-256', data));
    const key = await subtle.importKey('raw', this.#secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await subtle.sign('HMAC', key, data));
  }

  reset(): void {
    this.#chunks = [];
  }
}

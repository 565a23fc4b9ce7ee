/**
 * The storage part of the handler's configuration, as types only: what `settings.ts` resolves (with the
 * environment's fallback) and `providers.ts` fills in from a preset. Both import these; neither imports the other
 * for them.
 */

import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';

/** A storage provider with a preset: its endpoint shape, region and addressing style. */
export type StorageProvider = 'aws' | 'r2' | 'b2' | 'digitalocean' | 'minio' | 'ceph' | 'wasabi';

/** Settings that pick a provider preset. */
export interface ProviderSettings {
  /**
   * Fills in the endpoint, region and path style of a provider (see {@link PROVIDER_PRESETS}); an
   * `endpoint`, `region` or `forcePathStyle` given in code or in its env variable wins over the preset.
   * Env: `S3_UPLOAD_PROVIDER`.
   * @default none: every setting is given by hand
   */
  provider?: StorageProvider;
  /** Cloudflare account id, for the R2 endpoint `https://{accountId}.r2.cloudflarestorage.com`. Env: `S3_UPLOAD_ACCOUNT_ID`. */
  accountId?: string;
}

/**
 * Storage settings of the handler. Each one left out is read from its environment variable (named as `Env:`
 * in its documentation).
 */
export interface StorageSettings extends ProviderSettings {
  /** Access key id of the server's credentials. Env: `S3_UPLOAD_KEY`. */
  accessKeyId?: string;
  /** Secret access key of the server's credentials. Env: `S3_UPLOAD_SECRET`. */
  secretAccessKey?: string;
  /** Bucket name. Env: `S3_UPLOAD_BUCKET`. */
  bucket?: string;
  /** Region of the bucket, e.g. `us-east-1` (`auto` for Cloudflare R2). Env: `S3_UPLOAD_REGION`. */
  region?: string;
  /**
   * Endpoint of an S3-compatible server (R2, MinIO, Ceph, a local server), e.g.
   * `https://<account>.r2.cloudflarestorage.com`. Leave unset for AWS S3. Env: `S3_UPLOAD_ENDPOINT`.
   */
  endpoint?: string;
  /**
   * Address objects as `{endpoint}/{bucket}/{key}` instead of `{bucket}.{endpoint host}/{key}`.
   * Needed by most self-hosted servers (MinIO, Ceph, `localhost`). Env: `S3_UPLOAD_FORCE_PATH_STYLE`
   * (`true` or `1`).
   * @default false
   */
  forcePathStyle?: boolean;
  /**
   * SSE-C: a 256-bit customer-provided key (32 bytes, or its base64) that storage encrypts each object with
   * (presigned strategy). The browser must send it with the PUT (the handler returns it in `headers`), and
   * every later read needs it too. Env: `S3_UPLOAD_SSE_CUSTOMER_KEY` (base64).
   */
  sseCustomerKey?: Uint8Array | string;
  /**
   * Canned ACL signed into every presigned PUT as the `x-amz-acl` header (the browser sends it as given in
   * `headers`), so that a PUT which adds or changes an ACL (`public-read`) or adds grants
   * (`x-amz-grant-*`: S3 and radosgw refuse a canned ACL and grants together, 400) fails with 403
   * SignatureDoesNotMatch. `'none'` signs no ACL: for storage that refuses the header; then close ACLs with
   * a bucket setting (the docs' Security guide, "Headers the browser could add").
   * - `bucket-owner-full-control`: the one canned ACL an AWS bucket with ACLs disabled (Object Ownership
   *   "bucket owner enforced", the default since April 2023) accepts; the object stays private to the
   *   bucket owner.
   * - `private`: what Cloudflare R2 accepts (it supports no other ACL).
   * Env: `S3_UPLOAD_OBJECT_ACL`.
   * @default 'bucket-owner-full-control' without `endpoint` (AWS), 'private' with one
   */
  objectAcl?: ObjectAcl;
  /**
   * The checksum browsers send with each upload, which storage verifies (a byte changed on the way is refused
   * and sent again): `'crc64nvme'`, `'crc32c'`, `'sha256'` (`x-amz-checksum-*`, signed into presigned URLs) or
   * `'md5'` (`Content-MD5`, RFC 1864); `false` for none. Every preparation answer names it in `checksum`; the
   * client hashes the file in the browser (a Worker, WebAssembly) before a single PUT and part by part ahead
   * of a multipart upload's sends (the docs' guide "Checksums": what each costs and guards, and the provider
   * table). The bucket's CORS rule must allow the checksum's request header (`AllowedHeaders: ["*"]` does).
   * A client's own `checksum` option wins where storage verifies that algorithm.
   * Env: `S3_UPLOAD_CHECKSUM` (`crc32c`, `crc64nvme`, `sha256`, `md5` or `off`, any case).
   * @default the provider preset's (`PROVIDER_PRESETS`: the strongest cheap checksum the provider verifies);
   *   without a provider, the `aws` preset's for AWS S3 (no `endpoint`) and `false` with an `endpoint`
   *   (unknown storage: s3rver, for one, verifies nothing)
   */
  checksum?: ChecksumAlgorithm | false;
  /**
   * No overwrites: every write the handler signs carries `If-None-Match: *` (presigned PUTs sign it, the
   * server's CompleteMultipartUpload sends it, upload tokens tell the browser to send it), so storage refuses
   * (412) a second object under a key that holds one. Only for storage that honours conditional writes (the
   * docs' guide "Checksums", provider table); storage that ignores the header overwrites as before.
   * Env: `S3_UPLOAD_CONDITIONAL_WRITES` (`true` or `false`, `1` or `0`).
   * @default the provider preset's (`PROVIDER_PRESETS`); without a provider, the `aws` preset's for AWS S3
   *   (no `endpoint`) and `false` with an `endpoint`
   */
  conditionalWrites?: boolean;
  /**
   * Before it hands out its first presigned URL, the handler checks once per process (per endpoint, bucket and
   * access key) that storage refuses headers a presigned URL did not sign: it sends its own bucket a presigned
   * PUT with an added `x-amz-copy-source` and one with an added `x-amz-object-lock-legal-hold`, and refuses the
   * presigned strategy (500, logged through `onError` with the fix) while storage would copy another object or
   * hold one (Ceph radosgw without the bucket policy of `unsignedHeaderBucketPolicy`). Costs 4 small requests
   * (2 round trips and a DELETE) on the first presigned preparation; writes and deletes an object of 20 bytes
   * under `keyPrefix` (`upbeam-doctor-*`). Not made for AWS S3 itself (no `endpoint`), which refuses unsigned
   * `x-amz-*` headers. Likewise before its first upload token: where the bucket has object lock (one
   * GetObjectLockConfiguration; else nothing more), a token for an `upbeam-doctor-*` key tries a PutObject with
   * `x-amz-object-lock-legal-hold: ON`, and tokens are refused while storage applies it (radosgw 16.2, whatever
   * the policies: a browser could make its object undeletable). `false` skips both: only for storage that the
   * doctor's `presigned-headers` and `object-lock` checks passed.
   * @default true
   */
  checkUnsignedHeaders?: boolean;
}

/** A canned ACL the handler can sign into presigned PUTs; `'none'` sends no `x-amz-acl`. */
export type ObjectAcl = 'bucket-owner-full-control' | 'private' | 'none';

// Shared by the checksum suites of issue 46: the AWS references of each algorithm (what S3 writes: base64 of
// the digest, CRCs big-endian), and the browser's presigned multipart upload as requests to the handler.
import { createHash } from 'node:crypto';
import { crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { expect } from 'vitest';
import type { UploadHandler } from '../src/index';

/** The checksum of `bytes` as S3 writes it (the references: @aws-crypto/crc32c, @aws-sdk/crc64-nvme, node:crypto). */
export async function reference(algorithm: ChecksumAlgorithm, bytes: Uint8Array): Promise<string> {
  if (algorithm === 'crc32c') {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(crc32c(bytes));
    return out.toString('base64');
  }
  if (algorithm === 'crc64nvme') {
    const crc = new Crc64Nvme();
    crc.update(bytes);
    return Buffer.from(await crc.digest()).toString('base64');
  }
  return createHash(algorithm).update(bytes).digest('base64');
}

/** A composite multipart checksum: the digest of the parts' digests joined, then `-{parts}`. */
export async function composite(algorithm: ChecksumAlgorithm, parts: Uint8Array[]): Promise<string> {
  const digests = await Promise.all(parts.map(async (part) => Buffer.from(await reference(algorithm, part), 'base64')));
  return `${await reference(algorithm, Buffer.concat(digests))}-${parts.length}`;
}

/** POSTs a preparation or an operation to `handler`, as the browser does. */
export async function post(handler: UploadHandler, body: object): Promise<{ status: number; body: Record<string, any> }> {
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/**
 * A presigned multipart upload of `parts` as the browser makes it: create (with `checksum` in `_upload`), sign
 * each part with its checksum, PUT it (with `change` applied to what is sent, if any), then complete.
 * @returns the answers of create and complete, and the statuses of the part PUTs.
 */
export async function multipartUpload(
  handler: UploadHandler,
  parts: Uint8Array[],
  options: {
    algorithm: ChecksumAlgorithm;
    value?: string;
    filename?: string;
    route?: string;
    sent?: Uint8Array[];
    whole?: string;
    /** Stop before the complete: the answer's `complete()` sends it. */
    pauseBeforeComplete?: boolean;
  },
): Promise<{
  created: { status: number; body: Record<string, any> };
  statuses: number[];
  completed: { status: number; body: Record<string, any> } | undefined;
  complete?: () => Promise<{ status: number; body: Record<string, any> }>;
}> {
  const filesize = parts.reduce((sum, part) => sum + part.length, 0);
  const base = { filename: options.filename ?? 'video.bin', filetype: 'application/octet-stream', filesize, ...(options.route ? { route: options.route } : {}) };
  const checksum = { algorithm: options.algorithm, ...(options.value === undefined ? {} : { value: options.value }) };
  const created = await post(handler, { ...base, _upload: { strategy: 'presigned', checksum, multipart: { action: 'create', partSize: parts[0]!.length } } });
  if (created.status !== 200 || created.body.alreadyStored) return { created, statuses: [], completed: undefined };
  const { ticket } = created.body;
  const checksums = await Promise.all(parts.map((part) => reference(options.algorithm, part)));
  const partNumbers = parts.map((_, index) => index + 1);
  const signed = await post(handler, { ...base, _upload: { strategy: 'presigned', multipart: { action: 'sign-parts', ticket, partNumbers, checksums } } });
  expect(signed.status).toBe(200);
  const statuses: number[] = [];
  const etags: string[] = [];
  for (const [index, part] of signed.body.parts.entries() as IterableIterator<[number, { url: string; headers?: Record<string, string> }]>) {
    const response = await fetch(part.url, { method: 'PUT', headers: part.headers, body: new Uint8Array(options.sent?.[index] ?? parts[index]!) });
    await response.body?.cancel();
    statuses.push(response.status);
    etags.push(response.headers.get('etag') ?? '');
  }
  if (statuses.some((status) => status !== 200)) return { created, statuses, completed: undefined };
  const completedParts = partNumbers.map((partNumber, index) => ({ partNumber, etag: etags[index]!, checksum: checksums[index]! }));
  const complete = { action: 'complete', ticket, parts: completedParts, ...(options.whole === undefined ? {} : { checksum: options.whole }) };
  const send = () => post(handler, { ...base, _upload: { strategy: 'presigned', multipart: complete } });
  if (options.pauseBeforeComplete) return { created, statuses, completed: undefined, complete: send };
  return { created, statuses, completed: await send() };
}

/// <reference path="./s3rver.d.ts" />
/**
 * A PutObject or UploadPart whose body ends before its `Content-Length` (the connection dropped, the
 * browser cancelled) stores nothing and answers 400 `IncompleteBody`, as S3 does, once the request has ended
 * short (`IncomingMessage.complete` false). A cut-off PutObject's body is never renamed into the object's
 * place (whole-objects.ts), so the object stored before under the key stays, as on S3; s3rver writes an
 * UploadPart's body into the part's file as it arrives, which this removes (and puts back the part stored
 * before under that number).
 */
import { rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { S3rverMiddleware } from '@20minutes/s3rver';
import { aside, takeTurn } from './part-turns';
import { requestTarget } from './request-target';
import { S3Error } from './s3rver-internals';

/** s3rver's upload ids: 16 random bytes in hex (anything else never names a path). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Resolves once the request has ended or its connection closed, whichever comes first. */
function settled(request: IncomingMessage): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    request.once('end', resolve);
    request.once('close', resolve);
  });
}

/**
 * The middleware: runs s3rver's PutObject and UploadPart, then answers `IncompleteBody` for a cut-off body,
 * removing what an UploadPart wrote of it (and putting back the part it would have replaced).
 */
export function incompleteBodies(directory: string): S3rverMiddleware {
  return async function incompleteBody(ctx, next) {
    const target = requestTarget(ctx.path);
    const { uploadId, partNumber } = ctx.query;
    const isUploadPart = typeof uploadId === 'string' && typeof partNumber === 'string';
    // PutObject: no sub-resource (`?tagging`, `?acl` bodies are not the object), a presigned query aside (with
    // the `x-id=PutObject` that the AWS SDK's getSignedUrl adds).
    const isPutObject = Object.entries(ctx.query).every(
      ([name, value]) => name.toLowerCase().startsWith('x-amz-') || (name === 'x-id' && value === 'PutObject'),
    );
    const isCopy = ctx.get('x-amz-copy-source') !== '';
    if (ctx.method !== 'PUT' || target?.key === undefined || isCopy || !(isUploadPart || isPutObject)) return next();

    // S3 keeps a stored part when a later upload of the same part number fails; s3rver writes over the part's
    // file as the body arrives. The stored part is moved aside first and put back if the new body is cut off:
    // a late, cut-off duplicate of a part (a retry the browser gave up on) must not take the part that
    // CompleteMultipartUpload will list (s3rver then reads a missing file and never answers).
    const part = isUploadPart && UPLOAD_ID.test(uploadId) && /^\d+$/.test(partNumber)
      ? join(directory, target.bucket, '._S3rver_uploads', uploadId, partNumber)
      : undefined;
    // One upload of a part number at a time: a cut-off one must not remove (nor move aside) the file a whole
    // one of the same number writes at the same time (a tab closed mid-part while another tab sends it again).
    const turn = part === undefined ? undefined : await takeTurn(part);
    try {
      await storePart(ctx, next, part);
    } finally {
      turn?.();
    }
  };
}

/** Runs s3rver's PutObject or UploadPart; removes what an UploadPart wrote of a cut-off body (see {@link incompleteBodies}). */
async function storePart(ctx: Parameters<S3rverMiddleware>[0], next: Parameters<S3rverMiddleware>[1], part: string | undefined): Promise<void> {
  const kept = part === undefined ? false : await keepAside(part);
  // An aws-chunked body (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`) reaches s3rver through a transform that a
  // request ending short never ends: failed here, s3rver's write fails and stores nothing, instead of waiting
  // for ever.
  ctx.req.once('close', () => {
    const body = (ctx as { request?: { body?: unknown } }).request?.body;
    if (!ctx.req.complete && body !== ctx.req && body instanceof Readable) body.destroy(new Error('The request body ended short.'));
  });

  let failure: unknown;
  await next().catch((error: unknown) => {
    failure = error;
  });
  // A request s3rver refused before reading its body (403 for a signature or size that differs) has a body
  // nobody reads: drained, it ends, and the refusal is answered (else both sides would wait for ever).
  if (failure !== undefined && !ctx.req.complete && !ctx.req.destroyed) ctx.req.resume();
  await settled(ctx.req);
  if (ctx.req.complete && failure === undefined) {
    if (kept) await dropAside(part!);
    return;
  }
  if (part !== undefined) {
    await Promise.all([rm(part, { force: true }), rm(`${part}.md5`, { force: true })]);
    if (kept) await putBack(part);
  }
  if (ctx.req.complete) throw failure;
  // A part stored before is back in place; a cut-off PutObject stored nothing (nor lost the object before it).
  throw new S3Error(
    'IncompleteBody',
    'You did not provide the number of bytes specified by the Content-Length HTTP header.',
  );
}

/** Moves a stored part (and its MD5) aside; false when there is none. */
async function keepAside(part: string): Promise<boolean> {
  try {
    await rename(part, aside(part));
  } catch {
    return false;
  }
  await rename(`${part}.md5`, aside(`${part}.md5`)).catch(() => {});
  return true;
}

/** Puts a part moved aside back in place. */
async function putBack(part: string): Promise<void> {
  await rename(aside(part), part).catch(() => {});
  await rename(aside(`${part}.md5`), `${part}.md5`).catch(() => {});
}

/** Forgets a part moved aside (the new body was stored whole). */
async function dropAside(part: string): Promise<void> {
  await Promise.all([rm(aside(part), { force: true }), rm(aside(`${part}.md5`), { force: true })]);
}

/// <reference path="./s3rver.d.ts" />
/**
 * A PutObject or UploadPart whose body ends before its `Content-Length` (the connection dropped, the
 * browser cancelled) stores nothing and answers 400 `IncompleteBody`, as S3 does. s3rver writes the body
 * into the object's (or the part's) file as it arrives; whatever it made of a cut-off body, this removes it
 * once the request has ended short (`IncomingMessage.complete` false).
 *
 * Known limit: s3rver writes over the object's file as the body arrives, so a cut-off PUT to a key that
 * already held an object removes that object too (S3 would keep the old one).
 */
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { S3rverMiddleware } from '@20minutes/s3rver';
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

/** The middleware: runs s3rver's PutObject and UploadPart, then removes what they wrote of a cut-off body. */
export function incompleteBodies(directory: string): S3rverMiddleware {
  return async function incompleteBody(ctx, next) {
    const target = requestTarget(ctx.path);
    const { uploadId, partNumber } = ctx.query;
    const isUploadPart = typeof uploadId === 'string' && typeof partNumber === 'string';
    // PutObject: no sub-resource (`?tagging`, `?acl` bodies are not the object), a presigned query aside.
    const isPutObject = Object.keys(ctx.query).every((name) => name.startsWith('X-Amz-'));
    const isCopy = ctx.get('x-amz-copy-source') !== '';
    if (ctx.method !== 'PUT' || target?.key === undefined || isCopy || !(isUploadPart || isPutObject)) return next();

    let failure: unknown;
    await next().catch((error: unknown) => {
      failure = error;
    });
    // A request s3rver refused before reading its body (403 for a signature or size that differs) has a body
    // nobody reads: drained, it ends, and the refusal is answered (else both sides would wait for ever).
    if (failure !== undefined && !ctx.req.complete && !ctx.req.destroyed) ctx.req.resume();
    await settled(ctx.req);
    if (ctx.req.complete) {
      if (failure !== undefined) throw failure;
      return;
    }
    if (isUploadPart) {
      if (UPLOAD_ID.test(uploadId) && /^\d+$/.test(partNumber)) {
        const part = join(directory, target.bucket, '._S3rver_uploads', uploadId, partNumber);
        await Promise.all([rm(part, { force: true }), rm(`${part}.md5`, { force: true })]);
      }
    } else {
      await ctx.store.deleteObject(target.bucket, target.key);
    }
    throw new S3Error(
      'IncompleteBody',
      'You did not provide the number of bytes specified by the Content-Length HTTP header.',
    );
  };
}

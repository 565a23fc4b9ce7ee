import type { ChecksumAlgorithm, CompleteMultipartResponse, MultipartRequest, MultipartUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { objectTagging } from '../object-tags';
import { readContext } from '../upload-context';
import { reserving } from '../upload-limits';
import { TICKET_TTL_SECONDS } from '../ticket';
import type { MultipartTicketFields } from '../multipart-upload';
import { alreadyStored } from './already-stored';
import { baseAnswer, decideObject, recordUpload, type RouteContext } from './route-context';

/**
 * `_upload.multipart`: `create` is a new upload (decided like a single PUT, its tags set by
 * CreateMultipartUpload; with `limits`, reserved before storage is asked, until its ticket ends); the rest act
 * on its ticket; a `complete` runs `onUploadComplete` in the same request and, with `limits`, settles the
 * reservation to the stored size; an `abort` releases it.
 */
export async function runMultipart(route: RouteContext, operation: MultipartRequest, body: UploadRequestBody, source: RequestSource): Promise<object> {
  const { config, services } = route;
  const { limits } = services;
  if (operation.action === 'complete') {
    const answer = (await (await services.multipart()).continue(operation)) as CompleteMultipartResponse & { alreadyStored?: true };
    const { alreadyStored: deduplicated, ...completed } = answer;
    // The ticket was just verified by `continue`: its context is the one `create` signed, its size the declared one.
    const ticket = await services.multipartTickets().verify(operation.ticket);
    // A content-addressed key is checked always: the stored object must have the checksum it is named from.
    if (!config.onUploadComplete && !limits && ticket.checksumValue === undefined) return completed;
    const declared = limits === undefined || deduplicated ? undefined : ticket.filesize;
    // Another upload stored these bytes first: this one's file is counted, with no bytes.
    if (deduplicated) await limits?.settle(ticket.key, 0);
    const facts = { checksum: signedChecksum(ticket, completed), deduplicated, upload: operation.ticket.split('.')[1] };
    const { serverData } = await (await services.completion()).complete(completed.key, source.request, readContext(ticket.context), declared, facts);
    return serverData === undefined ? completed : ({ ...completed, serverData } satisfies CompleteMultipartResponse);
  }
  if (operation.action === 'abort' && limits) {
    const aborted = await (await services.multipart()).continue(operation);
    // Aborted on storage (a second abort is NO_SUCH_UPLOAD, thrown above): its bytes and file are given back.
    await limits.release((await services.multipartTickets().verify(operation.ticket)).key);
    return aborted;
  }
  if (operation.action !== 'create') return (await services.multipart()).continue(operation);
  const object = await decideObject(route, body, source);
  const stored = await alreadyStored(route, object);
  if (stored) return stored;
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  const ticketEnd = Math.floor(Date.now() / 1000) + TICKET_TTL_SECONDS;
  const upload = { key: object.key, filesize: body.filesize, expiresAt: ticketEnd * 1000, subject: object.subject };
  return reserving(limits, upload, async () => {
    const multipart = await services.multipart();
    // The upload's record (with `onUploadComplete`) is written while storage creates the upload; it ends with
    // the ticket, which serves as the receipt.
    const [creation, recording] = await Promise.allSettled([
      multipart.create({
        ...withoutChecksum(object),
        tagging,
        contentType: body.filetype,
        filesize: body.filesize,
        partSize: operation.partSize,
        checksumRequest: object.checksum,
        contentAddressed: config.contentAddressed,
      }),
      recordUpload(route, object, ticketEnd),
    ]);
    if (creation.status === 'rejected') throw creation.reason;
    const created = creation.value;
    if (recording.status === 'rejected') {
      // No upload is left behind without its record: the one just created is aborted.
      await multipart.continue({ action: 'abort', ticket: created.ticket }).catch(() => {});
      throw recording.reason;
    }
    return { ...baseAnswer(services.settings(), object.key, object.checksum?.algorithm), ...created } satisfies MultipartUploadResponse;
  });
}

/** The object's fields but its checksum request (which `create` takes as `checksumRequest`). */
function withoutChecksum<T extends { checksum?: unknown }>({ checksum: _, ...rest }: T): Omit<T, 'checksum'> {
  return rest;
}

/**
 * The checksum the completed object must have: a content-addressed key's (the ticket binds it), else the one
 * storage reported as it completed the upload (from the parts' signed checksums); undefined without one.
 */
function signedChecksum(ticket: MultipartTicketFields, completed: CompleteMultipartResponse): { algorithm: ChecksumAlgorithm; value: string } | undefined {
  if (ticket.checksum === undefined) return undefined;
  if (ticket.checksumValue !== undefined) return { algorithm: ticket.checksum, value: ticket.checksumValue };
  return completed.checksum && { algorithm: completed.checksum.algorithm, value: completed.checksum.value };
}

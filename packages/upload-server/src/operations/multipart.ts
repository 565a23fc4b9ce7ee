import type { CompleteMultipartResponse, MultipartRequest, MultipartUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { objectTagging } from '../object-tags';
import { readContext } from '../upload-context';
import { reserving } from '../upload-limits';
import { TICKET_TTL_SECONDS } from '../ticket';
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
  if (operation.action === 'complete' && (config.onUploadComplete || limits)) {
    const completed = (await (await services.multipart()).continue(operation)) as CompleteMultipartResponse;
    // The ticket was just verified by `continue`: its context is the one `create` signed, its size the declared one.
    const { context, filesize } = await services.multipartTickets().verify(operation.ticket);
    const declared = limits === undefined ? undefined : filesize;
    const { serverData } = await (await services.completion()).complete(completed.key, source.request, readContext(context), declared);
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
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  const ticketEnd = Math.floor(Date.now() / 1000) + TICKET_TTL_SECONDS;
  const upload = { key: object.key, filesize: body.filesize, expiresAt: ticketEnd * 1000, subject: object.subject };
  return reserving(limits, upload, async () => {
    const multipart = await services.multipart();
    // The upload's record (with `onUploadComplete`) is written while storage creates the upload; it ends with
    // the ticket, which serves as the receipt.
    const [creation, recording] = await Promise.allSettled([
      multipart.create({ ...object, tagging, contentType: body.filetype, filesize: body.filesize, partSize: operation.partSize }),
      recordUpload(route, object, ticketEnd),
    ]);
    if (creation.status === 'rejected') throw creation.reason;
    const created = creation.value;
    if (recording.status === 'rejected') {
      // No upload is left behind without its record: the one just created is aborted.
      await multipart.continue({ action: 'abort', ticket: created.ticket }).catch(() => {});
      throw recording.reason;
    }
    return { ...baseAnswer(services.settings(), object.key), ...created } satisfies MultipartUploadResponse;
  });
}

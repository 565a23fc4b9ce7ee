import type { CompleteMultipartResponse, MultipartRequest, MultipartUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { objectTagging } from '../object-tags';
import { readContext } from '../upload-context';
import { TICKET_TTL_SECONDS } from '../ticket';
import { baseAnswer, decideObject, recordUpload, type RouteContext } from './route-context';

/**
 * `_upload.multipart`: `create` is a new upload (decided like a single PUT, its tags set by
 * CreateMultipartUpload); the rest act on its ticket; a
 * `complete` runs `onUploadComplete` in the same request.
 */
export async function runMultipart(route: RouteContext, operation: MultipartRequest, body: UploadRequestBody, source: RequestSource): Promise<object> {
  const { config, services } = route;
  if (operation.action === 'complete' && config.onUploadComplete) {
    const completed = (await (await services.multipart()).continue(operation)) as CompleteMultipartResponse;
    // The ticket was just verified by `continue`: its context is the one `create` signed.
    const { context } = await services.multipartTickets().verify(operation.ticket);
    const { serverData } = await (await services.completion()).complete(completed.key, source.request, readContext(context));
    return serverData === undefined ? completed : ({ ...completed, serverData } satisfies CompleteMultipartResponse);
  }
  if (operation.action !== 'create') return (await services.multipart()).continue(operation);
  const object = await decideObject(route, body, source);
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  const multipart = await services.multipart();
  // The upload's record (with `onUploadComplete`) is written while storage creates the upload; it ends with
  // the ticket, which serves as the receipt.
  const [creation, recording] = await Promise.allSettled([
    multipart.create({ ...object, tagging, contentType: body.filetype, filesize: body.filesize, partSize: operation.partSize }),
    recordUpload(route, object, Math.floor(Date.now() / 1000) + TICKET_TTL_SECONDS),
  ]);
  if (creation.status === 'rejected') throw creation.reason;
  const created = creation.value;
  if (recording.status === 'rejected') {
    // No upload is left behind without its record: the one just created is aborted.
    await multipart.continue({ action: 'abort', ticket: created.ticket }).catch(() => {});
    throw recording.reason;
  }
  return { ...baseAnswer(services.settings(), object.key), ...created } satisfies MultipartUploadResponse;
}

import type { RenewRequest, TemporaryTokenUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import type { RequestSource } from '../incoming-request';
import { assertValidObjectKey } from '../object-key';
import { defaultContentDisposition } from '../upload-policy';
import { prepareToken } from './prepare-token';
import { authorize, carriedContext, uploadChecksum, type RouteContext } from './route-context';

/**
 * `_upload.renew`: fresh credentials for the key of the ticket. `onBeforeUpload` and the type and size
 * checks run again (the user may have signed out); a key it returns is ignored: the ticket's key stays.
 */
export async function renew(route: RouteContext, { ticket }: RenewRequest, body: UploadRequestBody, source: RequestSource): Promise<TemporaryTokenUploadResponse> {
  const { services } = route;
  const { bucket, key, firstIssuedAt } = await services.renewTickets().verify(ticket);
  if (bucket !== services.settings().bucket) throw new UploadError('INVALID_TICKET', 'The upload ticket is not valid: start the upload again.');
  const decided = await authorize(route, body, source);
  assertValidObjectKey(key, services.keyPrefix);
  const contentDisposition = decided?.contentDisposition ?? defaultContentDisposition(body.filetype);
  // The renewal's receipt binds the declared size too (with `limits`): the completion checks the object against it.
  const checksum = uploadChecksum(route, body, true);
  const object = { key, contentDisposition, metadata: decided?.metadata, context: carriedContext(route, decided), filesize: body.filesize, checksum };
  // A renewal never answers `alreadyStored` (that is decided at the first preparation).
  return prepareToken(route, object, firstIssuedAt) as Promise<TemporaryTokenUploadResponse>;
}

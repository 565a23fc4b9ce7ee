import type { UploadCompleteResponse } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { readContext } from '../upload-context';
import type { RouteContext } from './route-context';

/**
 * `_upload.complete`: the browser reports a stored object with the `receipt` of its preparation answer;
 * the object is checked (HEAD; deleted when too large or of a type not allowed) and `onUploadComplete` runs
 * with the context the receipt carries.
 */
export async function complete({ services }: RouteContext, { key, receipt }: { key: string; receipt: string }, source: RequestSource): Promise<UploadCompleteResponse> {
  const context = await services.receipts().verify(key, receipt);
  return (await services.completion()).complete(key, source.request, readContext(context));
}

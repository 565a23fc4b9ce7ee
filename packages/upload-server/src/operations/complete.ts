import type { UploadCompleteResponse } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { readContext } from '../upload-context';
import type { RouteContext } from './route-context';

/**
 * `_upload.complete`: the browser reports a stored object with the `receipt` of its preparation answer;
 * the object is checked (HEAD; deleted when too large, of a type not allowed, or larger than the size the
 * receipt binds) and `onUploadComplete` runs with the context the receipt carries; with `limits`, the upload's
 * reservation is settled to the stored size.
 */
export async function complete({ services }: RouteContext, { key, receipt }: { key: string; receipt: string }, source: RequestSource): Promise<UploadCompleteResponse> {
  const { context, size } = await services.receipts().open(key, receipt);
  return (await services.completion()).complete(key, source.request, readContext(context), size);
}

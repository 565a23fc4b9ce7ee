import type { UploadCompleteResponse } from '@upbeam/upload-protocol';
import type { RequestSource } from '../incoming-request';
import { readContext } from '../upload-context';
import type { RouteContext } from './route-context';

/**
 * `_upload.complete`: the browser reports a stored object with the `receipt` of its preparation answer;
 * the object is checked (HEAD; deleted when too large, of a type not allowed, or larger than the size the
 * receipt binds, or whose stored checksum is not the one the receipt binds) and `onUploadComplete` runs with the
 * context, checksum and deduplicated mark the receipt carries; with `limits`, the upload's reservation is
 * settled to the stored size.
 */
export async function complete({ services }: RouteContext, { key, receipt }: { key: string; receipt: string }, source: RequestSource): Promise<UploadCompleteResponse> {
  const { context, size, checksum, deduplicated } = await services.receipts().open(key, receipt);
  // A deduplicated upload is named by its receipt's signature: its hook runs once for it (the object is shared).
  const facts = { checksum, deduplicated, upload: receipt.split('.')[1] };
  return (await services.completion()).complete(key, source.request, readContext(context), size, facts);
}

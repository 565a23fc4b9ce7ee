import type { PreparedUploadBase } from '@upbeam/upload-protocol';
import { baseAnswer, type DecidedObject, type RouteContext } from './route-context';

/** How long a deduplicated upload's file counts as in flight for `limits`, in milliseconds: it is settled at once. */
const DEDUPLICATED_RESERVATION_MS = 60_000;

/** The answer of a preparation whose bytes storage already holds: no URL, token or upload; a receipt always. */
export type AlreadyStoredAnswer = PreparedUploadBase & { alreadyStored: true; receipt: string };

/**
 * A content-addressed preparation's answer when storage already holds its key with the SHA-256 the request
 * carried (HEAD with checksum mode; storage that reports no SHA-256 never matches): `alreadyStored: true` and a
 * receipt marked deduplicated that binds the checksum, so that the page's report runs the completion hook with
 * `deduplicated: true`. Undefined for any other route or object: prepare the upload as usual.
 *
 * With `limits`, the file is counted (preparations, files) with 0 bytes and nothing is held in flight: it is
 * reserved under an id of its own (the key is shared by every upload of these bytes) and settled at once.
 */
export async function alreadyStored(route: RouteContext, object: DecidedObject): Promise<AlreadyStoredAnswer | undefined> {
  const { config, services } = route;
  const { checksum } = object;
  if (!config.contentAddressed || checksum?.value === undefined) return undefined;
  const stored = await (await services.completion()).storedChecksum(object.key, checksum.algorithm);
  if (stored !== checksum.value) return undefined;
  const { limits } = services;
  if (limits) {
    const id = `${object.key}#${crypto.randomUUID()}`;
    await limits.reserve({ key: id, filesize: 0, expiresAt: Date.now() + DEDUPLICATED_RESERVATION_MS, subject: object.subject });
    await limits.settle(id, 0);
  }
  const facts = { checksum: { algorithm: checksum.algorithm, value: checksum.value }, deduplicated: true };
  const receipt = await services.receipts().issue(object.key, undefined, object.context, undefined, facts);
  return { ...baseAnswer(services.settings(), object.key, checksum.algorithm), alreadyStored: true, receipt };
}

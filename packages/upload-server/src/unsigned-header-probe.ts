import type { Presigner, UrlSigner } from './presign';
import { escapeUriPath } from './sigv4-query';

/**
 * Start of the probe's object names under the key prefix: reconcile and storage events leave them alone
 * (`isInternalKey`), and the probe deletes them.
 */
export const PROBE_NAME = 'upbeam-doctor-';

/** What the canary holds: a copy is told from an empty PUT by its length. */
const CANARY_BODY = 'upbeam-doctor-canary';

/** How long one probe request may take, in milliseconds: a storage that does not answer is not judged. */
const PROBE_REQUEST_TIMEOUT_MS = 10_000;

/** What the probe needs: both signers are the handler's own, so it sends what a browser would. */
export interface UnsignedHeaderProbe {
  bucket: string;
  /** Under which the probe writes (the handler's `keyPrefix`, where the server's credentials may write). */
  keyPrefix: string;
  /** The handler's PutObject presigner: the attacked URLs are signed exactly as a browser's. */
  presign: Presigner;
  /** Signs the probe's own requests (canary PUT, HEAD, DELETE, legal hold) with the server's credentials. */
  sign: UrlSigner;
}

/** What storage did with headers that a presigned PUT did not sign. */
export interface UnsignedHeaderVerdict {
  /** It ran the PUT as a CopyObject of `x-amz-copy-source` (read with the server's rights). */
  copies: boolean;
  /** Its answer to the PUT with `x-amz-copy-source` (HTTP status). */
  copyStatus: number;
  /** It applied `x-amz-object-lock-legal-hold: ON` (a bucket with object lock). */
  locks: boolean;
  /** Its answer to the PUT with the legal hold (HTTP status; 400 where the bucket has no object lock). */
  lockStatus: number;
}

/** An object the probe stored and must remove. */
interface Stored {
  key: string;
  versionId: string | undefined;
  held?: boolean;
}

/**
 * A browser's attack on a presigned PUT, made by the server against its own bucket: a URL that the handler's
 * presigner signed for an empty `text/plain` object is sent (1) with an added, unsigned `x-amz-copy-source`
 * naming a canary object the server wrote, and (2) with an added `x-amz-object-lock-legal-hold: ON`. Storage
 * that refuses unsigned `x-amz-*` headers (AWS S3, `@upbeam/local-s3`: 403; radosgw with the bucket policy of
 * the security guide: 403; a bucket without object lock: 400 to the hold) passes; storage that copies the canary
 * or holds the object does not. Whatever was stored is removed (the hold lifted first, each version by its
 * id): the bucket is left as it was.
 *
 * Cost: on storage that refuses both, 4 requests (canary PUT, the two attacked PUTs, the canary's DELETE), the
 * canary and the hold attempt in parallel: 2 round trips, then the DELETE; plus a HEAD and a DELETE for each
 * attacked PUT that storage took (and the hold lifted).
 * @throws Error when storage could not be asked (no answer, a 5xx, the canary refused): nothing is judged.
 */
export async function probeUnsignedHeaders(probe: UnsignedHeaderProbe): Promise<UnsignedHeaderVerdict> {
  const id = crypto.randomUUID().replace(/-/g, '').slice(0, 12);
  const name = (suffix: string) => `${probe.keyPrefix}${PROBE_NAME}${id}.${suffix}`;
  const stored: Stored[] = [];
  try {
    const [copy, lock] = await Promise.all([attemptCopy(probe, name('canary'), name('copy'), stored), attemptHold(probe, name('hold'), stored)]);
    return { copies: copy.applied, copyStatus: copy.status, locks: lock.applied, lockStatus: lock.status };
  } finally {
    await Promise.allSettled(stored.map((object) => remove(probe, object)));
  }
}

/** The presigned PUT of `key` with `extra` headers added, as a browser would send it. */
async function attack(probe: UnsignedHeaderProbe, key: string, extra: Record<string, string>, stored: Stored[]): Promise<number> {
  const { url, headers } = await probe.presign({ key, contentType: 'text/plain', expiresIn: 60, contentLength: 0 });
  const answer = await send(url, { method: 'PUT', headers: { ...headers, ...extra }, body: '' });
  if (answer.ok) stored.push({ key, versionId: answer.headers.get('x-amz-version-id') ?? undefined });
  return answer.status;
}

async function attemptCopy(probe: UnsignedHeaderProbe, canaryKey: string, key: string, stored: Stored[]) {
  const canary = await send(await probe.sign(signRequest(canaryKey, 'PUT')), { method: 'PUT', body: CANARY_BODY });
  if (!canary.ok) throw new Error(`storage refused the probe's canary PutObject (${canary.status})`);
  stored.push({ key: canaryKey, versionId: canary.headers.get('x-amz-version-id') ?? undefined });
  const status = await attack(probe, key, { 'x-amz-copy-source': `${probe.bucket}/${escapeUriPath(canaryKey)}`, 'x-amz-metadata-directive': 'REPLACE' }, stored);
  if (status < 200 || status > 299) return { status, applied: false };
  const head = await send(await probe.sign(signRequest(key, 'HEAD')), { method: 'HEAD' });
  // radosgw answers a PUT it ran as a copy without x-amz-version-id: the HEAD names the version to delete.
  const copied = stored.find((candidate) => candidate.key === key);
  if (copied) copied.versionId ??= head.headers.get('x-amz-version-id') ?? undefined;
  return { status, applied: head.headers.get('content-length') === String(CANARY_BODY.length) };
}

async function attemptHold(probe: UnsignedHeaderProbe, key: string, stored: Stored[]) {
  const status = await attack(probe, key, { 'x-amz-object-lock-legal-hold': 'ON' }, stored);
  if (status < 200 || status > 299) return { status, applied: false };
  const head = await send(await probe.sign(signRequest(key, 'HEAD')), { method: 'HEAD' });
  const applied = head.headers.get('x-amz-object-lock-legal-hold') === 'ON';
  const object = stored.find((candidate) => candidate.key === key);
  if (object) object.held = applied;
  return { status, applied };
}

/** Deletes one stored version, its legal hold lifted first. */
async function remove(probe: UnsignedHeaderProbe, object: Stored): Promise<void> {
  const version: Record<string, string> = object.versionId === undefined ? {} : { versionId: object.versionId };
  if (object.held) {
    const body = '<LegalHold xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>OFF</Status></LegalHold>';
    const lifted = await probe.sign({ ...signRequest(object.key, 'PUT'), query: { 'legal-hold': '', ...version } });
    await send(lifted, { method: 'PUT', headers: { 'content-type': 'application/xml' }, body });
  }
  const deleted = await send(await probe.sign({ ...signRequest(object.key, 'DELETE'), query: version }), { method: 'DELETE' });
  if (!deleted.ok) throw new Error(`storage refused the probe's DeleteObject (${deleted.status})`);
}

function signRequest(key: string, method: 'PUT' | 'HEAD' | 'DELETE') {
  return { method, key, query: {}, headers: {}, signed: new Set<string>(), expiresIn: 60 };
}

/** One probe request, its body read and dropped; a 5xx or no answer is an error (storage was not judged). */
async function send(url: string, init: RequestInit): Promise<Response> {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(PROBE_REQUEST_TIMEOUT_MS) });
  await answer.arrayBuffer().catch(() => {});
  if (answer.status >= 500) throw new Error(`storage answered the probe with ${answer.status}`);
  return answer;
}

/**
 * What storage's refusal of a presigned POST means, read in one place. Storage says why in XML (`<Code>`,
 * `<Message>`); a POST policy's refusal message quotes the policy condition it failed, so only the status and
 * the code reach the user's message, in words of ours.
 */
import { storageRefusalMessage, UploadClientError } from '../errors';
import { withRecovery } from '../recovery';
import { parseS3Error, retryAfterIn, type StorageAnswer } from '../s3-answer';

/** The message of a file outside the policy's `content-length-range` (a route's `maxFileSize`, or an empty file). */
const RANGE_MESSAGES: Record<string, string> = {
  EntityTooLarge: 'The file is larger than this upload allows: storage refused it (400 EntityTooLarge).',
  EntityTooSmall: 'The file is smaller than this upload allows: storage refused it (400 EntityTooSmall).',
};

/**
 * The error of storage's refusal of a POST form, marked with its recovery:
 * - a file outside the signed size range (400 `EntityTooLarge` / `EntityTooSmall`): final, saying so;
 * - a 403 of an expired policy (storage says `expired`, or the policy is past `expiresAt`: radosgw says only
 *   `AccessDenied`): `sign-again` (prepared again, at once);
 * - any other 403 (a policy condition the form failed, a wrong signature) or 4xx: final;
 * - 5xx, 408, 429, `SlowDown`: retried, by the engine's one classifier (`recovery.ts`).
 * The message is `Storage refused the upload (403 AccessDenied).`: storage's own text stays in the XML.
 * @param expiresAt - When the policy stops being accepted, in milliseconds since the epoch by this browser's clock.
 */
export function postRefusal(answer: StorageAnswer, expiresAt: number, now: number = Date.now()): UploadClientError {
  const { code, message } = parseS3Error(answer.body);
  const { status } = answer;
  const range = code === undefined ? undefined : RANGE_MESSAGES[code];
  const error = new UploadClientError('STORAGE_ERROR', range ?? storageRefusalMessage(status, code), {
    status,
    answerCode: code,
    retryAfter: retryAfterIn(answer.headers),
  });
  if (range) return withRecovery(error, 'give-up');
  const expired = status === 403 && (now >= expiresAt || /expired/i.test(message ?? ''));
  return expired ? withRecovery(error, 'sign-again') : error;
}

/** The `x-amz-date` field of a SigV4 POST policy's form, e.g. `20261129T171500Z`. */
const AMZ_DATE = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/;

/**
 * When a POST policy received now expires, by this browser's clock, in milliseconds since the epoch: now + its
 * lifetime (`expiresAt` less the signature's `x-amz-date` field, both by the server's clock), so a browser whose
 * clock is off does not take a valid policy for an expired one. Without a readable `x-amz-date`: `expiresAt` as
 * it is; `NaN` (never past) without a readable `expiresAt`.
 */
export function policyExpiry(answer: { expiresAt: string; fields: Record<string, string> }, now: number = Date.now()): number {
  const end = Date.parse(answer.expiresAt);
  const field = Object.entries(answer.fields).find(([name]) => name.toLowerCase() === 'x-amz-date')?.[1];
  const date = AMZ_DATE.exec(field ?? '');
  if (!date) return end;
  const [, year, month, day, hours, minutes, seconds] = date.map(Number) as number[];
  return now + end - Date.UTC(year!, month! - 1, day!, hours!, minutes!, seconds!);
}

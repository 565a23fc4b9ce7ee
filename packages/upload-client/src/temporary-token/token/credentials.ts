/**
 * The temporary credentials in force for one upload, renewed before they expire: a long upload outlives
 * the 3600 seconds they are issued for (SPEC 9), and a part signed with expired credentials is refused.
 */
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { UploadClientError } from '../../errors';
import type { Clock } from './clock';

/**
 * How long before their expiration the credentials are renewed, in milliseconds (SPEC 9: credential
 * refresh window 60 seconds): a request signed then still reaches storage before they expire.
 */
export const REFRESH_WINDOW_MS = 60_000;

/** The credentials of one upload and their renewal. */
export interface CredentialKeeper {
  /** The preparation answer in force. */
  readonly current: TemporaryTokenUploadResponse;
  /**
   * The answer to sign with now: the current one, or a renewed one when it expires within 60 seconds by
   * the corrected clock, or when a renewal was asked for. Concurrent callers share one renewal.
   * @throws the renewal's error when the current credentials cannot be used any longer.
   */
  fresh(): Promise<TemporaryTokenUploadResponse>;
  /**
   * Asks for a renewal before the next signature: storage said the credentials expired (`clock` false), or
   * the clock must be set from the endpoint's `serverTime` whatever the difference (`clock` true).
   * @returns false when the endpoint cannot renew (no `ticket` in its answer).
   */
  requestRenewal(reason: { clock: boolean }): boolean;
}

/** Expiration of the credentials, in milliseconds since the epoch (server's time); `undefined` when unsaid. */
export function expirationOf(prepared: TemporaryTokenUploadResponse): number | undefined {
  const time = Date.parse(prepared.token.Credentials.Expiration ?? '');
  return Number.isNaN(time) ? undefined : time;
}

/**
 * Keeps `prepared` fresh with `renew` (the endpoint's `_upload.renew`), reading times on `clock`, which it
 * corrects from each answer's `serverTime` (when more than 5 minutes off, or always after `requestRenewal`
 * with `clock`).
 */
export function createCredentialKeeper(
  prepared: TemporaryTokenUploadResponse,
  renew: (ticket: string) => Promise<TemporaryTokenUploadResponse>,
  clock: Clock,
): CredentialKeeper {
  let current = prepared;
  let renewing: Promise<TemporaryTokenUploadResponse> | undefined;
  let requested: { clock: boolean } | undefined;

  const adoptServerTime = (answer: TemporaryTokenUploadResponse, always: boolean) => {
    const serverTime = Date.parse(answer.serverTime ?? '');
    if (Number.isNaN(serverTime)) return;
    if (always) clock.adopt(serverTime);
    else clock.adoptIfSkewed(serverTime);
  };
  adoptServerTime(prepared, false);

  const isDue = (): boolean => {
    const expiration = expirationOf(current);
    return requested !== undefined || (expiration !== undefined && expiration - clock.now() <= REFRESH_WINDOW_MS);
  };

  const renewNow = async (ticket: string): Promise<TemporaryTokenUploadResponse> => {
    const reason = requested;
    requested = undefined;
    try {
      const next = await renew(ticket);
      checkRenewal(current, next);
      adoptServerTime(next, reason?.clock ?? false);
      current = next;
    } catch (error) {
      // Credentials still valid sign on (the next signature tries again); expired ones cannot.
      const expiration = expirationOf(current);
      if (reason || expiration === undefined || expiration <= clock.now()) throw error;
    }
    return current;
  };

  return {
    get current() {
      return current;
    },
    fresh() {
      const { ticket } = current;
      if (!ticket || !isDue()) return Promise.resolve(current);
      renewing ??= renewNow(ticket).finally(() => {
        renewing = undefined;
      });
      return renewing;
    },
    requestRenewal(reason) {
      if (!current.ticket) return false;
      // Credentials on their way serve the expired ones' signers too: one renewal for many refused parts.
      if (renewing && !reason.clock) return true;
      requested = { clock: reason.clock || requested?.clock === true };
      return true;
    },
  };
}

/**
 * Checks that a renewal answer is for the same object, with credentials.
 * @throws {@link UploadClientError} `INVALID_PREPARE_RESPONSE` otherwise.
 */
function checkRenewal(before: TemporaryTokenUploadResponse, after: TemporaryTokenUploadResponse): void {
  const credentials = after?.token?.Credentials;
  const complete = ['AccessKeyId', 'SecretAccessKey', 'SessionToken'].every(
    (name) => typeof credentials?.[name as keyof typeof credentials] === 'string',
  );
  if (!complete) {
    throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint renewed the credentials without token.Credentials.');
  }
  if (after.key !== before.key || after.bucket !== before.bucket) {
    throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint renewed the credentials for another object.');
  }
}

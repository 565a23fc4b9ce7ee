import { UploadError } from './errors';
import { base64url, createHmac, fromBase64url } from './hmac';

/**
 * How long a ticket is accepted, in seconds (24 hours). A ticket is all the server needs to carry on with an
 * upload it started (stateless: any instance behind a load balancer verifies it), so its lifetime is how
 * long an interrupted upload can be resumed: after a reload, a closed laptop or a night without network.
 * Longer would keep a leaked ticket useful for longer (it can only ever write or abort its own key); storage
 * removes incomplete multipart uploads after days with a lifecycle rule (AbortIncompleteMultipartUpload).
 */
export const TICKET_TTL_SECONDS = 24 * 3600;

/** Longest ticket accepted, in characters: a 1024-byte key and a long upload id fit in well under this. */
export const MAX_TICKET_LENGTH = 4096;

/** A verified ticket's fields, and when it stops being accepted. */
export type Ticketed<T> = T & { expiresAt: Date };

/**
 * Issues and checks tickets of one kind: `{base64url(JSON fields and expiry)}.{HMAC-SHA256}`. The fields are
 * readable (not secret) and bound by the signature; the HMAC key is derived from the server's secret and the
 * kind, so that a ticket of one kind is never accepted as another.
 */
export interface Tickets<T extends object> {
  /**
   * A ticket for `fields`, accepted {@link TICKET_TTL_SECONDS} from now, or until `notAfter` (seconds since
   * the epoch) when that is sooner: a renewal keeps the first ticket's end.
   */
  issue(fields: T, notAfter?: number): Promise<{ ticket: string; expiresAt: Date }>;
  /**
   * @throws {@link UploadError} `INVALID_TICKET` (403) for a ticket this server did not issue, one altered in
   *   any way or of another kind; `TICKET_EXPIRED` (403) past its expiry.
   */
  verify(ticket: string): Promise<Ticketed<T>>;
}

interface Payload {
  /** Expiry, in seconds since the epoch. */
  exp: number;
}

const decoder = new TextDecoder();

/**
 * Tickets of `kind`, signed with a key derived from `secret` and the issuing handler's `scope`
 * (`handlerScope`): another handler, even with the same credentials, refuses them.
 * @param read - Checks the shape of the fields of a ticket whose signature is valid (defence in depth:
 *   only this server could have written them); returns undefined when they do not fit.
 */
export function createTickets<T extends object>(
  secret: string,
  kind: string,
  read: (fields: Record<string, unknown>) => T | undefined,
  options: { scope: string; now?: (() => number) | undefined },
): Tickets<T> {
  const now = options.now ?? Date.now;
  const hmac = createHmac(secret, `${kind}-ticket`, options.scope);
  const invalid = () => new UploadError('INVALID_TICKET', 'The upload ticket is not valid: start the upload again.');
  return {
    async issue(fields, notAfter = Infinity) {
      const exp = Math.min(Math.floor(now() / 1000) + TICKET_TTL_SECONDS, notAfter);
      const payload = base64url(new TextEncoder().encode(JSON.stringify({ ...fields, exp } satisfies Payload)));
      const ticket = `${payload}.${await hmac.sign(payload)}`;
      // Refused now rather than by `verify` on the next request (long tags or context of an upload).
      if (ticket.length > MAX_TICKET_LENGTH) {
        throw new UploadError('INVALID_REQUEST', `The upload's ticket would be longer than ${MAX_TICKET_LENGTH} characters: shorten its tags.`);
      }
      return { ticket, expiresAt: new Date(exp * 1000) };
    },
    async verify(ticket) {
      const [payload = '', signature = '', ...rest] = ticket.split('.');
      if (ticket.length > MAX_TICKET_LENGTH || rest.length > 0 || !(await hmac.verify(payload, signature))) throw invalid();
      const bytes = fromBase64url(payload);
      let parsed: unknown;
      try {
        parsed = bytes && JSON.parse(decoder.decode(bytes));
      } catch {
        throw invalid();
      }
      if (parsed === null || typeof parsed !== 'object') throw invalid();
      const { exp, ...fields } = parsed as Record<string, unknown>;
      const checked = read(fields);
      if (typeof exp !== 'number' || !Number.isSafeInteger(exp) || checked === undefined) throw invalid();
      if (exp * 1000 < now()) {
        throw new UploadError('TICKET_EXPIRED', 'The upload ticket has expired: start the upload again.');
      }
      return { ...checked, expiresAt: new Date(exp * 1000) };
    },
  };
}

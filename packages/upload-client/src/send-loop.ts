/**
 * The one send loop of every body the engine sends to storage (a single PUT of either strategy, each part
 * of a multipart upload): sign -> send -> read the answer -> recover. How the request is signed and how its
 * answer is read belong to the caller; what comes after a failure is {@link nextStep}'s alone.
 */
import { createAbortError } from './abort';
import type { ChecksumRefusals } from './checksum-refusal';
import { nextStep, type NextStep } from './recovery';
import { waitForRetry, type RetrySettings } from './retry';

/** The step after storage refused a body's checksum: hashed and signed again, at once. */
const HASH_AGAIN: NextStep = { recovery: 'hash-again', delayMs: 0, signAgain: true };

/** One storage request to send until it succeeds, for {@link sendLoop}. */
export interface LoopRequest<Signed, Result> {
  /**
   * The signed request. `fresh`: the last signature cannot succeed (expired, or the session renewed its
   * credentials or corrected its clock): sign anew. `rehash`: storage refused the body's checksum: hash the
   * body again (drop the kept digest) before signing anew (`fresh` too). A failure here is final: signing that asks the
   * endpoint has used its own attempts. Absent for a request with nothing to sign (`Signed` is then
   * `undefined`): its first attempt is then sent at once, in the caller's task, before anything the caller
   * starts next (an endpoint request before the chunks a page loads beside it).
   */
  sign?(fresh: boolean, rehash: boolean): Promise<Signed>;
  /**
   * For a body sent with a checksum (`CHECKSUM_REFUSALS` of `checksum-refusal.ts`, loaded only where bodies are
   * hashed): storage's refusal of it is hashed and sent again once (`rehash`), then final.
   */
  checksums?: ChecksumRefusals;
  /**
   * Sends it and reads the answer.
   * @returns the result of a success.
   * @throws the error of a failure, marked with its recovery where it is not the default ({@link withRecovery}).
   */
  send(signed: Signed): Promise<Result>;
  /** Called when an attempt failed or was cancelled: its bytes in flight no longer count as uploaded. */
  lost?(): void;
}

/**
 * Signs and sends `request` until it succeeds, at most `settings.maxAttempts` times; between attempts waits
 * as {@link nextStep} says (after telling `settings.onRetry`), and signs again when it says so. A body whose
 * checksum storage refused is hashed and sent again once: a second refusal (or one on the last attempt) is final.
 * @returns what the successful attempt's `send` returned.
 * @throws the last attempt's error (a refused checksum as `checksums.final` makes it); `AbortError`
 *   `Upload aborted.` when `settings.signal` aborts.
 */
export async function sendLoop<Signed, Result>(request: LoopRequest<Signed, Result>, settings: RetrySettings): Promise<Result> {
  const { signal } = settings;
  let fresh = false;
  let rehash = false;
  let hashedAgain = false;
  for (let attempt = 1; ; attempt++) {
    const signed = request.sign ? await request.sign(fresh, rehash) : (undefined as Signed);
    try {
      return await request.send(signed);
    } catch (error) {
      request.lost?.();
      if (signal?.aborted) throw createAbortError();
      const refused = request.checksums?.refused(error);
      const step: NextStep | undefined = attempt < settings.maxAttempts ? (nextStep(error, attempt) ?? (refused && !hashedAgain ? HASH_AGAIN : undefined)) : undefined;
      if (!step) throw refused ? request.checksums!.final(error) : error;
      settings.onRetry?.({ attempt: attempt + 1, delayMs: step.delayMs, error });
      fresh = step.signAgain;
      rehash = step.recovery === 'hash-again';
      hashedAgain ||= rehash;
      await waitForRetry(step.delayMs, signal);
    }
  }
}

/**
 * Runs `attempt` (a request with nothing to sign: an endpoint call, a request the token session signs
 * itself) through {@link sendLoop}: up to `settings.maxAttempts` times, waiting as {@link nextStep} says.
 * @returns what the first successful attempt returns.
 * @throws the last attempt's error; the `AbortError` `Upload aborted.` when the signal aborts.
 */
export function withRetries<T>(attempt: () => Promise<T>, settings: RetrySettings): Promise<T> {
  return sendLoop({ send: attempt }, settings);
}

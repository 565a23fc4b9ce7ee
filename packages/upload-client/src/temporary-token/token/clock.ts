/**
 * The time the session signs with: this browser's clock, corrected when it is off. Storage refuses a
 * request signed with a time far from its own (S3: 403 `RequestTimeTooSkewed` beyond 15 minutes), and the
 * credentials' expiration is written in the server's time.
 */
import { parseS3Error } from '../../s3-answer';
import type { StorageAnswer } from './token-session';

/**
 * Difference from the server's clock above which the browser's clock is corrected, in milliseconds
 * (SPEC 9: clock-skew threshold 5 minutes). A smaller one is left alone: the server's time reaches the
 * browser late by the network's delay, and storage accepts it (S3 up to 15 minutes).
 */
export const CLOCK_SKEW_THRESHOLD_MS = 300_000;

/** The corrected clock of one session. */
export interface Clock {
  /** The corrected time, in milliseconds since the epoch. */
  now(): number;
  /** `time` (milliseconds since the epoch, corrected clock) as this browser's clock shows it. */
  toBrowserTime(time: number): number;
  /** Adopts the endpoint's time (`serverTime` of its answer) when it is more than 5 minutes off. */
  adoptIfSkewed(serverTime: number): void;
  /** Adopts storage's time: it refused a request as signed too far from it. */
  adopt(serverTime: number): void;
}

/** A clock that starts as `browserNow` (milliseconds since the epoch) and follows the corrections. */
export function createClock(browserNow: () => number): Clock {
  let offset = 0;
  return {
    now: () => browserNow() + offset,
    toBrowserTime: (time) => time - offset,
    adoptIfSkewed(serverTime) {
      const difference = serverTime - browserNow();
      if (Math.abs(difference - offset) > CLOCK_SKEW_THRESHOLD_MS) offset = difference;
    },
    adopt(serverTime) {
      offset = serverTime - browserNow();
    },
  };
}

/** A time read from an answer (ISO 8601 or an HTTP date), in milliseconds; `undefined` when unreadable. */
function parseTime(text: string | undefined): number | undefined {
  const time = text === undefined ? Number.NaN : Date.parse(text.trim());
  return Number.isNaN(time) ? undefined : time;
}

/** Whether storage refused a request as signed with a time too far from its own (S3: 403). */
export function isClockSkewRefusal(answer: StorageAnswer): boolean {
  return answer.status === 403 && parseS3Error(answer.body).code === 'RequestTimeTooSkewed';
}

/**
 * Storage's time in a refusal, in milliseconds since the epoch: the error's `<ServerTime>` (AWS S3 sends
 * it with `RequestTimeTooSkewed`), else the `Date` header when the page may read it (always in Node; in a
 * browser, cross-origin, only when the bucket's CORS rule exposes it). `undefined` when neither is readable.
 */
export function storageTimeOf(answer: StorageAnswer): number | undefined {
  const serverTime = /<ServerTime>([^<]{1,100})<\/ServerTime>/.exec(answer.body)?.[1];
  return parseTime(serverTime) ?? parseTime(/^date:(.*)$/im.exec(answer.headers)?.[1]);
}

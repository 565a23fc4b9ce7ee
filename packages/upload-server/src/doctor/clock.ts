import type { CheckContext, Finding } from './finding';

/** Largest clock difference S3 accepts on a signed request: 15 minutes (RequestTimeTooSkewed); Upbeam warns from 5. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

/**
 * The server's clock against storage's `Date` header (of the HeadBucket answer): SigV4 requests and presigned
 * URLs carry the signing time, and storage refuses them when it is too far from its own.
 * `Date` has a resolution of one second, so differences under 2 seconds are noise.
 */
export function checkClock({ lastHeaders }: CheckContext, now: number = Date.now()): Finding {
  const date = lastHeaders().date;
  if (date === undefined || Number.isNaN(Date.parse(date))) {
    return { check: 'clock', status: 'skipped', message: 'Storage sent no Date header to compare the clock with.' };
  }
  const skewSeconds = Math.round((now - Date.parse(date)) / 1000);
  const direction = skewSeconds > 0 ? 'ahead of' : 'behind';
  if (Math.abs(skewSeconds) > MAX_CLOCK_SKEW_SECONDS) {
    return {
      check: 'clock',
      status: 'fail',
      message: `This server's clock is ${Math.abs(skewSeconds)} s ${direction} storage's (more than ${MAX_CLOCK_SKEW_SECONDS} s): signed URLs may be refused (RequestTimeTooSkewed) or expire early. Sync the clock (NTP, e.g. systemd-timesyncd or chrony).`,
    };
  }
  return { check: 'clock', status: 'ok', message: `Clock within ${Math.max(Math.abs(skewSeconds), 1)} s of storage's Date.` };
}

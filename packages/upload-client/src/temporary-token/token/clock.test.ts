import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_THRESHOLD_MS, createClock, isClockSkewRefusal, storageTimeOf } from './clock';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-23T07:00:00Z');

describe('createClock', () => {
  it('follows the endpoint time only when more than 5 minutes off (SPEC 9)', () => {
    expect(CLOCK_SKEW_THRESHOLD_MS).toBe(300_000);
    const clock = createClock(() => T0);
    clock.adoptIfSkewed(T0 + 5 * MINUTE);
    expect(clock.now()).toBe(T0);
    clock.adoptIfSkewed(T0 - 10 * MINUTE);
    expect(clock.now()).toBe(T0 - 10 * MINUTE);
    expect(clock.toBrowserTime(T0 - 10 * MINUTE)).toBe(T0);
    // Measured from the corrected clock: 4 minutes from it is close enough.
    clock.adoptIfSkewed(T0 - 6 * MINUTE);
    expect(clock.now()).toBe(T0 - 10 * MINUTE);
  });

  it("adopts storage's time whatever the difference", () => {
    let browser = T0;
    const clock = createClock(() => browser);
    clock.adopt(T0 + 1000);
    browser += 500;
    expect(clock.now()).toBe(T0 + 1500);
  });
});

describe('reading a RequestTimeTooSkewed answer', () => {
  const refusal = (body: string, headers = '') => ({ status: 403, body, headers });
  const skewed = '<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the current time is too large.</Message>';

  it('knows it by its status and code', () => {
    expect(isClockSkewRefusal(refusal(`${skewed}</Error>`))).toBe(true);
    expect(isClockSkewRefusal(refusal('<Error><Code>AccessDenied</Code></Error>'))).toBe(false);
    expect(isClockSkewRefusal({ status: 400, body: `${skewed}</Error>`, headers: '' })).toBe(false);
  });

  it("reads AWS's <ServerTime>, else the Date header, else nothing", () => {
    const aws = `${skewed}<RequestTime>20261123T064000Z</RequestTime><ServerTime>2026-11-23T07:00:00Z</ServerTime></Error>`;
    expect(storageTimeOf(refusal(aws, 'date: Mon, 23 Nov 2026 08:00:00 GMT'))).toBe(T0);
    expect(storageTimeOf(refusal(`${skewed}</Error>`, 'content-type: application/xml\r\ndate: Mon, 23 Nov 2026 07:00:00 GMT'))).toBe(T0);
    expect(storageTimeOf(refusal(`${skewed}</Error>`, 'content-type: application/xml'))).toBeUndefined();
    expect(storageTimeOf(refusal('<ServerTime>soon</ServerTime>', 'date: never'))).toBeUndefined();
  });
});

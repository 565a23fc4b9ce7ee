import { describe, expect, it } from 'vitest';
import { isUploadClientError } from './errors';
import { MAX_PARTS, MIN_PART_SIZE, resolveMultipartSettings } from './multipart-options';

const MiB = 1024 * 1024;

function failure(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(isUploadClientError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('resolveMultipartSettings', () => {
  it('defaults: 5 MiB parts, 4 at once, parts removed on error, no tags', () => {
    expect(resolveMultipartSettings(40 * MiB, {})).toEqual({ partSize: 5 * MiB, queueSize: 4, leavePartsOnError: false, tags: [] });
    expect(MIN_PART_SIZE).toBe(5242880);
  });

  it('raises the default part size for files that would need more than 10000 parts', () => {
    const size = 60 * 1024 * MiB;
    const { partSize } = resolveMultipartSettings(size, {});
    expect(Math.ceil(size / partSize)).toBeLessThanOrEqual(MAX_PARTS);
  });

  it.each([5242879, 1, 0, -1, 5 * MiB + 0.5, Number.NaN])('refuses partSize %d, naming the option and the limit', (partSize) => {
    expect(failure(() => resolveMultipartSettings(MiB, { partSize })).message).toMatch(/^partSize .*5242880 bytes/);
  });

  it.each([0, -1, 1.5])('refuses queueSize %d', (queueSize) => {
    expect(failure(() => resolveMultipartSettings(MiB, { queueSize })).message).toMatch(/^queueSize must be an integer of at least 1/);
  });

  it('refuses more than 10000 parts with the SPEC message', () => {
    const message = failure(() => resolveMultipartSettings(MAX_PARTS * 5 * MiB + 1, { partSize: 5 * MiB })).message;
    expect(message).toMatch(/^Exceeded 10000 parts in multipart upload/);
    expect(resolveMultipartSettings(MAX_PARTS * 5 * MiB, { partSize: 5 * MiB }).partSize).toBe(5 * MiB);
  });
});

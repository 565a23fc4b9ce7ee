import { MAX_OBJECT_SIZE, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { isUploadClientError } from './errors';
import { usesMultipart } from './multipart-threshold';
import { choosePartSize, partCount, partRanges, resolveMultipartSettings, storedBytes, wholeParts } from './part-math';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

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

describe('choosePartSize', () => {
  it('defaults to 5 MiB parts', () => {
    expect(choosePartSize(40 * MiB)).toBe(5 * MiB);
    expect(MIN_PART_SIZE).toBe(5242880);
  });

  it.each([50 * GiB, 50 * GiB + 1, 100 * GiB, TiB, 3 * TiB + 7, MAX_OBJECT_SIZE])(
    'fits %d bytes in at most 10000 parts of whole MiB, within S3 part limits',
    (size) => {
      const partSize = choosePartSize(size);
      expect(partSize % MiB).toBe(0);
      expect(partSize).toBeGreaterThanOrEqual(MIN_PART_SIZE);
      expect(partSize).toBeLessThanOrEqual(MAX_PART_SIZE);
      expect(partCount(size, partSize)).toBeLessThanOrEqual(MAX_PARTS);
    },
  );

  it('needs 525 MiB parts for 5 TiB', () => {
    expect(choosePartSize(5 * TiB)).toBe(525 * MiB);
    expect(partCount(5 * TiB, 525 * MiB)).toBe(9987);
  });

  it('refuses a file over 5 TiB', () => {
    expect(failure(() => choosePartSize(MAX_OBJECT_SIZE + 1)).message).toMatch(/at most 5497558138880 bytes \(5 TiB\)/);
  });

  it.each([5242879, 1, 0, -1, 5 * MiB + 0.5, Number.NaN, MAX_PART_SIZE + 1])('refuses partSize %d, naming the limits', (partSize) => {
    expect(failure(() => choosePartSize(MiB, partSize)).message).toMatch(/^partSize .*5242880 bytes/);
  });

  it('refuses more than 10000 parts at a fixed partSize with the SPEC 8 message', () => {
    expect(failure(() => choosePartSize(MAX_PARTS * 5 * MiB + 1, 5 * MiB)).message).toMatch(/^Exceeded 10000 parts in multipart upload/);
    expect(choosePartSize(MAX_PARTS * 5 * MiB, 5 * MiB)).toBe(5 * MiB);
    expect(failure(() => choosePartSize(5 * TiB, 500 * MiB)).message).toMatch(/use a partSize of at least 549755814 bytes/);
  });
});

describe('partRanges', () => {
  it('cuts the file in consecutive parts, the last one shorter', () => {
    expect(partRanges(12 * MiB + 3, 5 * MiB)).toEqual([
      { partNumber: 1, start: 0, end: 5 * MiB },
      { partNumber: 2, start: 5 * MiB, end: 10 * MiB },
      { partNumber: 3, start: 10 * MiB, end: 12 * MiB + 3 },
    ]);
    expect(partRanges(5 * MiB, 5 * MiB)).toEqual([{ partNumber: 1, start: 0, end: 5 * MiB }]);
  });

  it('covers 5 TiB exactly, every part but the last of the part size', () => {
    const partSize = choosePartSize(5 * TiB);
    const parts = partRanges(5 * TiB, partSize);
    expect(parts).toHaveLength(9987);
    expect(parts.at(-1)).toEqual({ partNumber: 9987, start: 9986 * partSize, end: 5 * TiB });
    expect(parts.every((part, i) => part.start === i * partSize && (i === parts.length - 1 || part.end - part.start === partSize))).toBe(true);
  });
});

describe('usesMultipart', () => {
  it('goes multipart at and above the threshold (100 MiB by default), never for an empty file', () => {
    expect(usesMultipart(100 * MiB - 1)).toBe(false);
    expect(usesMultipart(100 * MiB)).toBe(true);
    expect(usesMultipart(6 * MiB, 6 * MiB)).toBe(true);
    expect(usesMultipart(0, 0)).toBe(false);
  });

  it('always goes multipart over 5 GiB, S3 PutObject limit', () => {
    expect(usesMultipart(5 * GiB, Number.POSITIVE_INFINITY)).toBe(false);
    expect(usesMultipart(5 * GiB + 1, Number.POSITIVE_INFINITY)).toBe(true);
  });
});

describe('resolveMultipartSettings', () => {
  it('defaults: 100 MiB threshold, 5 MiB parts, 4 at once, parts removed on error, no resume, no tags', () => {
    expect(resolveMultipartSettings(40 * MiB, {})).toEqual({
      multipartThreshold: 100 * MiB,
      partSize: 5 * MiB,
      queueSize: 4,
      leavePartsOnError: false,
      resume: false,
      tags: [],
    });
  });

  it.each([0, -1, 1.5])('refuses queueSize %d', (queueSize) => {
    expect(failure(() => resolveMultipartSettings(MiB, { queueSize })).message).toMatch(/^queueSize must be an integer of at least 1/);
  });

  it.each([-1, 0.5])('refuses multipartThreshold %d', (multipartThreshold) => {
    expect(failure(() => resolveMultipartSettings(MiB, { multipartThreshold })).message).toMatch(/^multipartThreshold/);
  });
});

describe('wholeParts', () => {
  const MiB = 1024 * 1024;
  it('keeps parts of the right size and journal parts, leaves out a part stored cut short or out of range', () => {
    const parts = wholeParts(
      [
        { partNumber: 1, etag: '"a"', size: 5 * MiB },
        { partNumber: 2, etag: '"b"', size: 3 * MiB }, // cut off mid-body, kept by storage
        { partNumber: 3, etag: '"c"' }, // from the journal: answered whole
        { partNumber: 4, etag: '"d"', size: 2 * MiB }, // the last part is shorter
        { partNumber: 5, etag: '"e"', size: 1 }, // beyond the file
      ],
      17 * MiB,
      5 * MiB,
    );
    expect(parts).toEqual([
      { partNumber: 1, etag: '"a"' },
      { partNumber: 3, etag: '"c"' },
      { partNumber: 4, etag: '"d"' },
    ]);
  });
});

describe('storedBytes', () => {
  const MiB = 1024 * 1024;
  const size = 2 * 5 * MiB + 123;

  it('counts the whole parts kept, the short last part by its own size', () => {
    const parts = [
      { partNumber: 1, etag: '"a"' },
      { partNumber: 3, etag: '"c"' },
    ];
    expect(storedBytes(parts, size, 5 * MiB)).toBe(5 * MiB + 123);
  });

  it('leaves out a listed part cut short, and is 0 for none', () => {
    expect(storedBytes([{ partNumber: 2, etag: '"b"', size: 1000 }], size, 5 * MiB)).toBe(0);
    expect(storedBytes([], size, 5 * MiB)).toBe(0);
  });
});

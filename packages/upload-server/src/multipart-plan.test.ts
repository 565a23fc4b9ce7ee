import { MAX_OBJECT_SIZE, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { partSizeOf, planParts } from './multipart-plan';
import { completeParts } from './multipart-upload';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('planParts: how a file is cut into parts', () => {
  it.each([
    ['one byte', 1, MIN_PART_SIZE, 1],
    ['exactly one part', MIN_PART_SIZE, MIN_PART_SIZE, 1],
    ['one byte over one part', MIN_PART_SIZE + 1, MIN_PART_SIZE, 2],
    ['12 MiB + 5 bytes in 5 MiB parts', 12 * MiB + 5, 5 * MiB, 3],
    ['10000 parts exactly', MAX_PARTS * MIN_PART_SIZE, MIN_PART_SIZE, MAX_PARTS],
    ['5 TiB in 5 GiB parts', MAX_OBJECT_SIZE, MAX_PART_SIZE, 1024],
    ['5 TiB in the smallest part size that fits 10000 parts', MAX_OBJECT_SIZE, Math.ceil(MAX_OBJECT_SIZE / MAX_PARTS), MAX_PARTS],
  ])('%s', (_, filesize, partSize, partCount) => {
    expect(planParts(filesize, partSize)).toEqual({ filesize, partSize, partCount });
  });

  it('sizes every part but the last at partSize, the last at the rest; all of them add up to the file', () => {
    for (const [filesize, partSize] of [
      [12 * MiB + 5, 5 * MiB],
      [MAX_OBJECT_SIZE, MAX_PART_SIZE],
      [MAX_OBJECT_SIZE - 1, 600 * MiB],
      [3 * GiB, 1 * GiB],
    ] as const) {
      const plan = planParts(filesize, partSize);
      let total = 0;
      for (let part = 1; part <= plan.partCount; part += 1) {
        const size = partSizeOf(plan, part);
        expect(size).toBeGreaterThan(0);
        expect(size).toBeLessThanOrEqual(partSize);
        if (part < plan.partCount) expect(size).toBe(partSize);
        total += size;
      }
      expect(total).toBe(filesize);
    }
    expect(partSizeOf(planParts(12 * MiB + 5, 5 * MiB), 3)).toBe(2 * MiB + 5);
  });

  it("refuses more than 10000 parts with SPEC 8's message (400 TOO_MANY_PARTS)", () => {
    expect(() => planParts(MAX_PARTS * MIN_PART_SIZE + 1, MIN_PART_SIZE)).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_PARTS', status: 400, message: 'Exceeded 10000 parts in multipart upload' }),
    );
    expect(() => planParts(MAX_OBJECT_SIZE, 500 * MiB)).toThrow('Exceeded 10000 parts in multipart upload');
  });

  it.each([
    ['under 5 MiB (S3: EntityTooSmall)', MIN_PART_SIZE - 1],
    ['over 5 GiB', MAX_PART_SIZE + 1],
    ['fractional', MIN_PART_SIZE + 0.5],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
  ])('refuses a part size %s (400 INVALID_REQUEST)', (_, partSize) => {
    expect(() => planParts(100 * MiB, partSize)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', status: 400 }));
  });

  it('refuses an empty file (a single PUT stores it)', () => {
    expect(() => planParts(0, MIN_PART_SIZE)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it.each([0, -1, 4, 1.5, 10001])('refuses part number %s of a 3-part upload', (partNumber) => {
    expect(() => partSizeOf(planParts(12 * MiB, 5 * MiB), partNumber)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});

describe('completeParts: exactly parts 1 to N', () => {
  const part = (partNumber: number) => ({ partNumber, etag: `"etag-${partNumber}"` });

  it('sorts the parts', () => {
    expect(completeParts([part(3), part(1), part(2)], 3)).toEqual([part(1), part(2), part(3)]);
  });

  it.each([
    ['a missing part', [part(1), part(3)], 3, 'part 2 is missing'],
    ['a missing last part', [part(1), part(2)], 3, 'part 3 is missing'],
    ['a part twice', [part(1), part(1), part(2)], 3, 'part 1 is listed twice'],
    ['a part beyond the plan', [part(1), part(2), part(3), part(4)], 3, 'part 4 does not exist'],
  ])('refuses %s', (_, parts, count, why) => {
    expect(() => completeParts(parts, count)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', message: expect.stringContaining(why) }));
  });
});

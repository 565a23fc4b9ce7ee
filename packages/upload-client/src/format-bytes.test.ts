import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('writes sizes in B, kB, MB, GB, TB by powers of 1000, one decimal below 10', () => {
    const sizes = [0, 840, 999, 1000, 1234, 12_345, 999_499, 12_582_912, 3_400_000_000, 5e12, 5e15];
    expect(sizes.map((bytes) => formatBytes(bytes, { locale: 'en' }))).toEqual([
      '0 B',
      '840 B',
      '999 B',
      '1.0 kB',
      '1.2 kB',
      '12 kB',
      '999 kB',
      '13 MB',
      '3.4 GB',
      '5.0 TB',
      '5,000 TB',
    ]);
  });

  it('chooses the unit after rounding: 999,960 bytes per second is 1.0 MB/s, not 1000 kB/s', () => {
    expect(formatBytes(999_960, { perSecond: true, locale: 'en' })).toBe('1.0 MB/s');
    expect(formatBytes(9_960_000, { locale: 'en' })).toBe('10 MB');
    expect(formatBytes(999.6, { locale: 'en' })).toBe('1.0 kB');
  });

  it('writes the number in the locale; a negative or non-finite value reads as 0', () => {
    expect(formatBytes(1_250_000, { locale: 'de' })).toBe('1,3 MB');
    expect(formatBytes(-5, { locale: 'en' })).toBe('0 B');
    expect(formatBytes(Number.NaN, { locale: 'en' })).toBe('0 B');
  });

  it('keeps each locale its own formatter, however they interleave, past the cache of formatters made', () => {
    const locales = ['en', 'de', 'fr', 'ja', 'hi', 'ar', 'ru', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'tr', 'ko', 'zh', 'cs', 'da'];
    for (let round = 0; round < 2; round += 1) {
      for (const locale of locales) {
        const expected = `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(1.3)} MB`;
        expect(formatBytes(1_250_000, { locale })).toBe(expected);
        expect(formatBytes(1_250_000, { locale: [locale, 'en'] })).toBe(expected);
      }
    }
    expect(formatBytes(1_250_000, { locale: 'de' })).toBe('1,3 MB');
    expect(formatBytes(840, { locale: 'de' })).toBe('840 B');
  });
});

/** Units of {@link formatBytes}: powers of 1000 (SI), as file managers and browsers show sizes. */
const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Options of {@link formatBytes}. */
export interface FormatBytesOptions {
  /** A speed: `bytes` is bytes per second, and the text ends in `/s`. @default false */
  perSecond?: boolean;
  /** BCP 47 locale of the number (`de` writes `1,2 MB`). @default the browser's locale */
  locale?: string | string[];
}

/**
 * Formatters made so far, by locale and digits: making an `Intl.NumberFormat` costs tens of microseconds, more
 * than formatting with it, and a list of thousands of files formats sizes and speeds in every row it draws.
 */
const formats = new Map<string, Intl.NumberFormat>();

/** Most formatters kept: an app shows a few locales; past this the cache starts again. */
const MAX_FORMATS = 16;

/** The formatter of numbers in `locale` with `digits` decimals, made once. */
function numberFormat(locale: string | string[] | undefined, digits: number): Intl.NumberFormat {
  const key = `${digits} ${[locale ?? []].flat().join(',')}`;
  let format = formats.get(key);
  if (!format) {
    if (formats.size >= MAX_FORMATS) formats.clear();
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format;
}

/**
 * A size or a speed as people read it, in B, kB, MB, GB or TB (powers of 1000), with one decimal below 10
 * of the unit and none above: `840 B`, `1.2 kB`, `12 MB`, `1.0 MB/s`, `3.4 GB`. The unit is chosen after
 * rounding, so 999,960 bytes per second reads `1.0 MB/s`, never `1000 kB/s`. The number is written with
 * `Intl.NumberFormat` in `locale`.
 *
 * @param bytes - Bytes, or bytes per second with `perSecond`; a negative or non-finite value reads as 0.
 * @example
 * formatBytes(12_582_912); // '13 MB'
 * formatBytes(summary.bytesPerSecond, { perSecond: true }); // '1.0 MB/s'
 */
export function formatBytes(bytes: number, options: FormatBytesOptions = {}): string {
  let value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  let unit = 0;
  // Whole bytes carry no decimal; a larger unit keeps one below 10, so its value is rounded as it will be shown.
  const shown = (n: number, index: number) => (index === 0 ? Math.round(n) : n < 9.95 ? Math.round(n * 10) / 10 : Math.round(n));
  while (shown(value, unit) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit > 0 && shown(value, unit) < 10 ? 1 : 0;
  const number = numberFormat(options.locale, digits).format(value);
  return `${number} ${UNITS[unit]}${options.perSecond ? '/s' : ''}`;
}

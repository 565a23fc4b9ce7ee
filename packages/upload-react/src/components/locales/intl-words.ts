/**
 * The counted words of one plural form per category of `Intl.PluralRules` (`one`, `two`, `few`, `many`,
 * `zero`), `#` standing for the number: `{ one: '# fichier', many: '# de fichiers', other: '# fichiers' }`.
 * A category without a form takes `other`.
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A duration in words (`3 minutes`, `1 heure et 5 minutes`), and whether it reads as one (`1 heure`: a singular verb). */
export type Duration = [text: string, singular: boolean];

/** The `Intl` writing of numbers, plurals, percents and durations in one language, each formatter made on first use. */
export interface IntlWords {
  /** A whole number: `1 234` in French. */
  number: (n: number) => string;
  /** `n` with the form of its plural category, `#` replaced by the number. */
  count: (n: number, forms: PluralForms) => string;
  /** A percent (0-100): `64 %` in French. */
  percent: (n: number) => string;
  /**
   * Seconds (> 0) rounded up, in words, as the summary reads time left: whole seconds under a minute, whole
   * minutes under an hour, then hours and minutes (`1 heure et 5 minutes`).
   */
  duration: (seconds: number) => Duration;
}

/**
 * The `Intl` words of `tag` (BCP 47). Nothing is made until used: a locale that an app imports but never shows
 * costs no formatter.
 * @param hoursAndMinutes - How an hour and its minutes join: `conjunction` (`1 heure et 5 minutes`) or `unit`
 * (`1時間5分`: Japanese and Chinese write them side by side).
 */
export function intlWords(tag: string, hoursAndMinutes: Intl.ListFormatType = 'conjunction'): IntlWords {
  let numbers: Intl.NumberFormat | undefined;
  let percents: Intl.NumberFormat | undefined;
  let rules: Intl.PluralRules | undefined;
  const units = new Map<string, Intl.NumberFormat>();
  const number = (n: number) => (numbers ??= new Intl.NumberFormat(tag)).format(n);
  const category = (n: number) => (rules ??= new Intl.PluralRules(tag)).select(n);
  const unit = (n: number, name: 'second' | 'minute' | 'hour') => {
    let format = units.get(name);
    if (!format) units.set(name, (format = new Intl.NumberFormat(tag, { style: 'unit', unit: name, unitDisplay: 'long' })));
    return format.format(n);
  };
  return {
    number,
    count: (n, forms) => (forms[category(n)] ?? forms.other).replace('#', number(n)),
    percent: (n) => (percents ??= new Intl.NumberFormat(tag, { style: 'percent' })).format(n / 100),
    duration: (seconds) => {
      const whole = Math.max(1, Math.ceil(seconds));
      if (whole < 60) return [unit(whole, 'second'), category(whole) === 'one'];
      const minutes = Math.ceil(whole / 60);
      if (minutes < 60) return [unit(minutes, 'minute'), category(minutes) === 'one'];
      const hours = Math.floor(minutes / 60);
      if (minutes % 60 === 0) return [unit(hours, 'hour'), category(hours) === 'one'];
      return [new Intl.ListFormat(tag, { type: hoursAndMinutes }).format([unit(hours, 'hour'), unit(minutes % 60, 'minute')]), false];
    },
  };
}

/**
 * `text` kept apart from the words around it (Unicode's first strong isolate, U+2068 … U+2069): a file name in
 * Latin letters inside a right-to-left sentence keeps its own direction, and the punctuation after it stays
 * in place.
 */
export const isolate = (text: string) => `\u2068${text}\u2069`;

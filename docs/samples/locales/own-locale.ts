import { de, en, type UploadLocale } from '@upbeam/upload-react/locales';

/** Swiss German: German's words, Swiss numbers (`1’234`), and no ß. */
export const deCH: UploadLocale = {
  ...de,
  locale: 'de-CH',
  labels: {
    ...de.labels,
    rejected: { ...de.labels.rejected, 'file-too-large': (name, size) => `${name} ist zu gross (${size}).` },
    errors: { ...de.labels.errors, FILE_TOO_LARGE: 'Die Datei ist zu gross.' },
  },
};

// A language of your own: every label (TypeScript lists what is missing), the counts by Intl.PluralRules.
const plural = new Intl.PluralRules('pl');
const numbers = new Intl.NumberFormat('pl');
/** `1 plik`, `2 pliki`, `5 plików`: Polish has one, few and many. */
const files = (n: number) => `${numbers.format(n)} ${{ one: 'plik', few: 'pliki', many: 'plików' }[plural.select(n) as 'one' | 'few' | 'many'] ?? 'pliku'}`;

export const pl: UploadLocale = {
  locale: 'pl',
  dir: 'ltr',
  labels: {
    ...en.labels, // start from English, then translate every word
    dropzone: 'Upuść tutaj pliki lub folder',
    dropzoneSingle: 'Upuść tutaj plik',
    button: 'Prześlij pliki',
    filesUploaded: (done, total) => `Przesłano ${files(done)} z ${numbers.format(total)}`,
    failed: (count) => `Nieudane: ${numbers.format(count)}`,
  },
};

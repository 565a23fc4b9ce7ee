import type { UploadSummary } from '@upbeam/upload-client';
import { describe, expect, it } from 'vitest';
import { announcement, errorText, summaryText } from '../format';
import { DEFAULT_LABELS, withDefaults, type UploadLocale } from '../labels';
import { ar, de, en, es, fr, ja, ptBR, zhCN } from './index';

// The shipped locales' words, plurals and Intl formats, in Node's full ICU (the browsers' words are checked
// in examples/react-vite/test/locales.e2e.test.ts). Spaces are compared as one kind: French writes a narrow
// no-break space before `%` and `:`, which CLDR versions have changed.
const spaces = (text: string) => text.replace(/\s/g, ' ');
const LOCALES = { fr, de, es, ptBR, ja, zhCN, ar };

const summary = (count: Partial<UploadSummary['count']>, more: Partial<UploadSummary> = {}): UploadSummary => ({
  uploaded: 0,
  size: 0,
  progress: 0,
  bytesPerSecond: 0,
  secondsLeft: undefined,
  count: { queued: 0, uploading: 0, paused: 0, done: 0, error: 0, aborted: 0, elsewhere: 0, ...count },
  ...more,
});

describe('every shipped locale', () => {
  it.each(Object.entries(LOCALES))('%s has every word English has, in another language, and a BCP 47 tag', (_, { locale, dir, labels }) => {
    expect(Object.keys(labels).sort()).toEqual(Object.keys(DEFAULT_LABELS).filter((key) => key !== 'rejection').sort());
    expect(Object.keys(labels.status).sort()).toEqual(Object.keys(DEFAULT_LABELS.status).sort());
    expect(Object.keys(labels.rejected).sort()).toEqual(Object.keys(DEFAULT_LABELS.rejected).sort());
    expect(Intl.getCanonicalLocales(locale)).toEqual([locale]);
    expect(dir).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    for (const key of ['dropzone', 'dropzoneSingle', 'button', 'cancel', 'clear'] as const) expect(labels[key]).not.toBe(DEFAULT_LABELS[key]);
  });

  it('en is the components’ own words', () => {
    expect(en).toEqual({ locale: 'en', dir: 'ltr', labels: DEFAULT_LABELS });
  });
});

describe('plural forms by Intl.PluralRules', () => {
  it('French: 0 and 1 singular, a million with « de »', () => {
    const uploaded = (done: number) => spaces(fr.labels.filesUploaded(done, 5));
    expect(uploaded(0)).toBe('0 fichier importé sur 5');
    expect(uploaded(1)).toBe('1 fichier importé sur 5');
    expect(uploaded(2)).toBe('2 fichiers importés sur 5');
    expect(spaces(fr.labels.filesUploaded(1_000_000, 1_000_000))).toBe('1 000 000 de fichiers importés sur 1 000 000');
    expect([1, 2, 1_000_000].map((n) => spaces(fr.labels.failed(n)))).toEqual(['1 échec', '2 échecs', '1 000 000 d’échecs']);
  });

  it('German: one and other', () => {
    expect(de.labels.filesUploaded(1, 1)).toBe('1 von 1 Datei hochgeladen');
    expect(de.labels.filesUploaded(0, 2)).toBe('0 von 2 Dateien hochgeladen');
    expect(de.labels.filesUploaded(1500, 2000)).toBe('1.500 von 2.000 Dateien hochgeladen');
  });

  it('Spanish: one, other, and many (a million with «de»)', () => {
    expect(es.labels.filesUploaded(1, 1)).toBe('1 de 1 archivo subido');
    expect(es.labels.filesUploaded(0, 3)).toBe('0 de 3 archivos subidos');
    expect(spaces(es.labels.filesUploaded(1, 1_000_000))).toBe('1 de 1.000.000 de archivos subidos');
    expect([1, 4].map(es.labels.cancelled)).toEqual(['1 cancelado', '4 cancelados']);
  });

  it('Portuguese (Brazil): 0 and 1 singular, many for a million', () => {
    expect(ptBR.labels.failed(1)).toBe('1 falhou');
    expect(ptBR.labels.failed(2)).toBe('2 falharam');
    expect(ptBR.labels.filesUploaded(0, 1)).toBe('0 de 1 arquivo enviado');
    expect(ptBR.labels.filesUploaded(2, 2)).toBe('2 de 2 arquivos enviados');
    expect(ptBR.labels.filesUploaded(0, 1_000_000)).toBe('0 de 1.000.000 de arquivos enviados');
  });

  it('Japanese and Chinese: one form, counted with 件 and 个', () => {
    expect([1, 2, 1000].map((n) => ja.labels.filesUploaded(n, n))).toEqual(['1 件中 1 件をアップロード済み', '2 件中 2 件をアップロード済み', '1,000 件中 1,000 件をアップロード済み']);
    expect(zhCN.labels.filesUploaded(3, 5)).toBe('已上传 3/5 个文件');
    expect(zhCN.labels.failed(1)).toBe('1 个失败');
  });

  it('Arabic: all six categories (zero, one, two, few, many, other)', () => {
    expect(new Intl.PluralRules('ar').resolvedOptions().pluralCategories.sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    const failed = [0, 1, 2, 3, 11, 100].map((n) => ar.labels.failed(n));
    expect(failed).toEqual(['تعذّر رفع 0 ملف', 'تعذّر رفع ملف واحد', 'تعذّر رفع ملفين', 'تعذّر رفع 3 ملفات', 'تعذّر رفع 11 ملفًا', 'تعذّر رفع 100 ملف'].map(arabicDigits));
    // The dual as a subject is nominative: ملفان.
    expect(ar.labels.queued(2)).toBe('ملفان في الانتظار');
    expect(ar.labels.filesUploaded(1, 2)).toBe(arabicDigits('تم رفع 1 من ملفين'));
  });
});

/** `text` with its digits as Intl writes them in Arabic here (Latin or Arabic-Indic, by the ICU's data). */
function arabicDigits(text: string): string {
  return text.replace(/\d+/g, (digits) => new Intl.NumberFormat('ar').format(Number(digits)));
}

describe('time left in words', () => {
  it.each([
    [fr, [0.5, 'moins d’une seconde restante'], [1, 'environ 1 seconde restante'], [12.2, 'environ 13 secondes restantes'], [3600, 'environ 1 heure restante'], [3900, 'environ 1 heure et 5 minutes restantes']],
    [de, [0.5, 'noch weniger als eine Sekunde'], [61, 'noch etwa 2 Minuten'], [3900, 'noch etwa 1 Stunde und 5 Minuten']],
    [es, [60, 'falta aproximadamente 1 minuto'], [180, 'faltan aproximadamente 3 minutos'], [7200, 'faltan aproximadamente 2 horas']],
    [ptBR, [1, 'falta cerca de 1 segundo'], [3900, 'faltam cerca de 1 hora e 5 minutos']],
    [ja, [0.2, '残り 1 秒未満'], [180, '残り約 3 分']],
    [zhCN, [180, '剩余约 3分钟']],
    [ar, [0.5, 'الوقت المتبقي: أقل من ثانية'], [3600, 'الوقت المتبقي: ساعة تقريبًا'], [7200, 'الوقت المتبقي: ساعتان تقريبًا'], [180, arabicDigits('الوقت المتبقي: 3 دقائق تقريبًا')]],
  ] as [UploadLocale, ...[number, string][]][])('%#: each duration reads in the locale', (locale, ...cases) => {
    for (const [seconds, text] of cases) expect(spaces(locale.labels.timeLeft(seconds))).toBe(spaces(text));
  });
});

describe('numbers, sizes and speeds in the locale', () => {
  it('the summary line: counts, percent, speed and time left in German; the separator and the ended announcement in Japanese', () => {
    const running = summary({ done: 2, error: 1, uploading: 1 }, { progress: 64.7, bytesPerSecond: 1_234_567, secondsLeft: 200 });
    expect(spaces(summaryText(running, de.labels, de.locale))).toBe('2 von 4 Dateien hochgeladen · 1 fehlgeschlagen · 64 % · 1,2 MB/s · noch etwa 4 Minuten');
    expect(announcement(summary({ done: 4, error: 1 }), ja.labels)).toBe('5 件中 4 件をアップロード済み、1 件失敗。');
    expect(spaces(announcement(summary({ done: 1, uploading: 1 }, { progress: 47 }), fr.labels))).toBe('Importation : 40 %, 1 fichier terminé sur 2.');
  });

  it('a failed row: the words of its code in the locale, the server’s own message for a code the locale has no words for', () => {
    const refused = Object.assign(new Error('Only PNG files.'), { code: 'PREPARE_FAILED', answerCode: 'FILE_TYPE_NOT_ALLOWED' });
    expect(errorText(refused, es.labels)).toBe('No se acepta este tipo de archivo.');
    expect(errorText(Object.assign(new Error('Only PNG files.'), { code: 'PREPARE_FAILED', answerCode: 'APP_RULE' }), es.labels)).toBe('Only PNG files.');
    expect(errorText(refused, withDefaults({ errors: { FILE_TYPE_NOT_ALLOWED: 'Nur PNG.' } }, de))).toBe('Nur PNG.');
  });

  it('labels override single words on top of a locale', () => {
    const labels = withDefaults({ button: 'Photos importieren', status: { done: 'Fertig' } }, de);
    expect([labels.button, labels.status.done, labels.status.error, labels.cancel]).toEqual(['Photos importieren', 'Fertig', 'Fehlgeschlagen', 'Abbrechen']);
  });
});

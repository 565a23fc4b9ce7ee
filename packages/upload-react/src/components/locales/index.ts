/**
 * @module
 * `@upbeam/upload-react/locales`: the ready-made components' words in other languages, each an
 * {@link UploadLocale} to pass as their `locale` prop: {@link fr} French, {@link de} German, {@link es}
 * Spanish, {@link ptBR} Portuguese (Brazil), {@link ja} Japanese, {@link zhCN} Simplified Chinese, {@link ar}
 * Arabic (right to left), and {@link en} English (the components' default). Plurals by `Intl.PluralRules`,
 * numbers, sizes, speeds and durations by `Intl` in the locale. An app ships only the locales it imports.
 *
 * @example
 * import { Uploader } from '@upbeam/upload-react/components';
 * import { fr } from '@upbeam/upload-react/locales';
 *
 * <Uploader route="photos" locale={fr} labels={{ button: 'Ajouter des photos' }} />
 */
export type { RejectionLabels, UploadLabelOverrides, UploadLabels, UploadLocale } from '../labels';
export { ar } from './ar';
export { de } from './de';
export { en } from './en';
export { es } from './es';
export { fr } from './fr';
export { ja } from './ja';
export { ptBR } from './pt-br';
export { zhCN } from './zh-cn';

import { DEFAULT_LABELS, type UploadLocale } from '../labels';

/**
 * English (`en`), the components' own words (`DEFAULT_LABELS` of `@upbeam/upload-react/components`): what they
 * show with no `locale`, here to pass explicitly or to start your own locale from. Numbers, sizes and speeds in
 * English.
 * @example
 * <Uploader route="photos" locale={{ ...en, locale: 'en-GB' }} />
 */
export const en: UploadLocale = { locale: 'en', dir: 'ltr', labels: DEFAULT_LABELS };

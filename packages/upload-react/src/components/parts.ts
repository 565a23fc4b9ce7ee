import type { UploadLabelOverrides, UploadLabels, UploadLocale } from './labels';

/** The named parts of the components, each with a `data-upbeam` attribute and a class of its own. */
export type UploadPart =
  | 'root'
  | 'dropzone'
  | 'dropzoneLabel'
  | 'dropzoneHint'
  | 'button'
  | 'rejections'
  | 'overall'
  | 'summary'
  | 'actions'
  | 'list'
  | 'row'
  | 'thumbnail'
  | 'name'
  | 'status'
  | 'details'
  | 'progress'
  | 'error';

/** The look every component takes: theme, words, classes. */
export interface UploadAppearance {
  /**
   * `light`, `dark`, or `system` (the browser's `prefers-color-scheme`). Sets `data-theme` on the root.
   * @default 'system'
   */
  theme?: 'light' | 'dark' | 'system';
  /** Leaves out every class of the stylesheet (`upbeam-*`): your own classes and `data-upbeam` parts only. */
  unstyled?: boolean;
  /** A class added to the component's root element. */
  className?: string;
  /** A class added to each named part (`row`, `progress`, `button`…). */
  classNames?: Partial<Record<UploadPart, string>>;
  /**
   * Words to change (see {@link UploadLabels}) on top of the locale's; the nested ones (`status`, `rejected`,
   * `errors`) one by one.
   */
  labels?: UploadLabelOverrides;
  /**
   * The user's language: a locale of `@upbeam/upload-react/locales` (`fr`, `de`, `es`, `ptBR`, `ja`, `zhCN`,
   * `ar`) or your own {@link UploadLocale}: its words, its numbers, sizes and speeds, and its direction (`dir`
   * and `lang` on the component's root: `ar` lays it out right to left). A BCP 47 tag alone (`de`) writes the
   * numbers, sizes and speeds in it and keeps the English words.
   * @default English words, numbers in the browser's locale
   */
  locale?: string | UploadLocale;
}

const DEFAULT_CLASS: Record<UploadPart, string> = {
  root: 'upbeam',
  dropzone: 'upbeam-dropzone',
  dropzoneLabel: 'upbeam-dropzone-label',
  dropzoneHint: 'upbeam-dropzone-hint',
  button: 'upbeam-button',
  rejections: 'upbeam-rejections',
  overall: 'upbeam-overall',
  summary: 'upbeam-summary',
  actions: 'upbeam-actions',
  list: 'upbeam-list',
  row: 'upbeam-row',
  thumbnail: 'upbeam-thumbnail',
  name: 'upbeam-name',
  status: 'upbeam-status',
  details: 'upbeam-details',
  progress: 'upbeam-progress',
  error: 'upbeam-error',
};

/** `className` and `data-upbeam` of `part`: the stylesheet's class (unless unstyled), the app's, and `extra`. */
export function partProps(part: UploadPart, appearance: UploadAppearance, extra?: string): { className?: string; 'data-upbeam': UploadPart } {
  const classes = [appearance.unstyled ? undefined : DEFAULT_CLASS[part], appearance.classNames?.[part], extra].filter(Boolean);
  return { ...(classes.length > 0 ? { className: classes.join(' ') } : {}), 'data-upbeam': part };
}

/**
 * Props of a component's root element: the theme's `data-theme`, the root classes (`className` too), and with
 * a locale object its `lang` and `dir`.
 */
export function rootProps(part: UploadPart, appearance: UploadAppearance) {
  const root = appearance.unstyled ? undefined : DEFAULT_CLASS.root;
  const { locale } = appearance;
  return {
    ...partProps(part, appearance, [root, appearance.className].filter(Boolean).join(' ') || undefined),
    'data-theme': appearance.theme ?? 'system',
    ...(typeof locale === 'object' ? { lang: locale.locale, dir: locale.dir } : {}),
  };
}

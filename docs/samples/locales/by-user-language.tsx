import { Uploader } from '@upbeam/upload-react/components';
import { ar, de, en, es, fr, ja, ptBR, zhCN, type UploadLocale } from '@upbeam/upload-react/locales';

// Importing them all ships all seven (~6.5 kB gzip); an app in one language imports only its own (~1.6 kB).
const LOCALES: Record<string, UploadLocale> = { en, fr, de, es, 'pt-BR': ptBR, ja, 'zh-CN': zhCN, ar };

/** The first of the user's languages the app has words for (`navigator.languages`, then the language alone), else English. */
export function userLocale(languages: readonly string[] = navigator.languages): UploadLocale {
  for (const tag of languages) {
    const found = LOCALES[tag] ?? LOCALES[tag.split('-')[0]!];
    if (found) return found;
  }
  return en;
}

export const Uploads = () => <Uploader route="documents" locale={userLocale()} />;

import { UploadDropzone, Uploader } from '@upbeam/upload-react/components';
import { ar, de, en, es, fr, ja, ptBR, zhCN } from '@upbeam/upload-react/locales';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The page of locales.e2e.test.ts: the `<Uploader>` in the locale of `?locale=` (`en`, `fr`, `de`, `es`,
 * `ptBR`, `ja`, `zhCN`, `ar`), taking images and `.bin` files; with `?single=1`, a drop zone that takes one
 * file (`maxFiles: 1`) instead. Every locale is bundled here: an app imports only its own.
 */
const LOCALES = { en, fr, de, es, ptBR, ja, zhCN, ar };
const params = new URLSearchParams(location.search);
const locale = LOCALES[(params.get('locale') ?? 'en') as keyof typeof LOCALES];

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main className="locales-page">
      <h1>Upload</h1>
      {params.get('single') === '1' ? (
        <UploadDropzone locale={locale} theme="light" maxFiles={1} />
      ) : (
        <Uploader locale={locale} theme="light" accept="image/*,.bin" />
      )}
    </main>
  </StrictMode>,
);

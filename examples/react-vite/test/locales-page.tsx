import { UploadDropzone, Uploader } from '@upbeam/upload-react/components';
import { ar, de, en, es, fr, ja, ptBR, zhCN } from '@upbeam/upload-react/locales';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The page of locales.e2e.test.ts: the `<Uploader>` in the locale of `?locale=` (`en`, `fr`, `de`, `es`,
 * `ptBR`, `ja`, `zhCN`, `ar`), taking images and `.bin` files; with `?single=1`, a drop zone that takes one
 * file instead (`maxFiles: 1`, or the rules of `?route=`). Every locale is bundled here: an app imports only its own.
 */
const LOCALES = { en, fr, de, es, ptBR, ja, zhCN, ar };
const params = new URLSearchParams(location.search);
const locale = LOCALES[(params.get('locale') ?? 'en') as keyof typeof LOCALES];
/** With `?single=1`, an upload route whose rules (read from the endpoint's GET) take one file, else the prop `maxFiles={1}`. */
const route = params.get('route') ?? undefined;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main className="locales-page">
      <h1>Upload</h1>
      {params.get('single') === '1' ? (
        <UploadDropzone locale={locale} theme="light" route={route} maxFiles={route ? undefined : 1} />
      ) : (
        <Uploader locale={locale} theme="light" accept="image/*,.bin" />
      )}
    </main>
  </StrictMode>,
);

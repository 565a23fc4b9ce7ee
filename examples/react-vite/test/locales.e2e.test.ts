import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExample, type RunningExample } from '@upbeam/example-shared/example-server';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, defineRoutes } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, recordAnnouncements } from './announcements';
import { audit } from './axe-audit';
import { bundlePage } from './bundle-page';

// The components in each shipped locale of `@upbeam/upload-react/locales` (issue 48), in every engine: the
// page `locales-page.tsx` (bundled with React's production build and the built packages, as an app ships it)
// shows the <Uploader> in the locale of `?locale=`. Two files and one refused file are dropped: the words
// shown (drop zone, status, buttons, summary, the refusal), the polite live region's last sentence, `lang`
// and `dir` on the region, the row laid out in the locale's direction (Arabic: right to left), and axe-core
// finding no violation, each in the locale's language. A drop zone taking one file reads the singular line.

/** What each locale shows and says, Intl's digits and spaces aside (see {@link plain}). */
const EXPECTED = {
  en: {
    lang: 'en',
    dropzone: 'Drop files or a folder here',
    single: 'Drop a file here',
    done: 'Uploaded',
    clear: 'Clear list',
    announced: '2 of 2 files uploaded.',
    summary: /^2 of 2 files uploaded · 100%/,
    refused: 'brochure.pdf: this type of file is not accepted (image/*,.bin).',
  },
  fr: {
    lang: 'fr',
    dropzone: 'Déposez des fichiers ou un dossier ici',
    single: 'Déposez un fichier ici',
    done: 'Importé',
    clear: 'Vider la liste',
    announced: '2 fichiers importés sur 2.',
    summary: /^2 fichiers importés sur 2 · 100 %/,
    refused: 'brochure.pdf : ce type de fichier n’est pas accepté (image/*,.bin).',
  },
  de: {
    lang: 'de',
    dropzone: 'Dateien oder einen Ordner hier ablegen',
    single: 'Eine Datei hier ablegen',
    done: 'Hochgeladen',
    clear: 'Liste leeren',
    announced: '2 von 2 Dateien hochgeladen.',
    summary: /^2 von 2 Dateien hochgeladen · 100 %/,
    refused: 'brochure.pdf: Dieser Dateityp wird nicht akzeptiert (image/*,.bin).',
  },
  es: {
    lang: 'es',
    dropzone: 'Suelta archivos o una carpeta aquí',
    single: 'Suelta un archivo aquí',
    done: 'Subido',
    clear: 'Vaciar la lista',
    announced: '2 de 2 archivos subidos.',
    summary: /^2 de 2 archivos subidos · 100 %/,
    refused: 'brochure.pdf: no se acepta este tipo de archivo (image/*,.bin).',
  },
  ptBR: {
    lang: 'pt-BR',
    dropzone: 'Solte arquivos ou uma pasta aqui',
    single: 'Solte um arquivo aqui',
    done: 'Enviado',
    clear: 'Limpar lista',
    announced: '2 de 2 arquivos enviados.',
    summary: /^2 de 2 arquivos enviados · 100 ?%/,
    refused: 'brochure.pdf: este tipo de arquivo não é aceito (image/*,.bin).',
  },
  ja: {
    lang: 'ja',
    dropzone: 'ここにファイルまたはフォルダをドロップ',
    single: 'ここにファイルをドロップ',
    done: 'アップロード完了',
    clear: 'リストをクリア',
    announced: '2 件中 2 件をアップロード済み。',
    summary: /^2 件中 2 件をアップロード済み · 100 ?%/,
    refused: 'brochure.pdf: この種類のファイルは受け付けていません（image/*,.bin）。',
  },
  zhCN: {
    lang: 'zh-CN',
    dropzone: '将文件或文件夹拖放到此处',
    single: '将文件拖放到此处',
    done: '已上传',
    clear: '清空列表',
    announced: '已上传 2/2 个文件。',
    summary: /^已上传 2\/2 个文件 · 100 ?%/,
    refused: 'brochure.pdf：不接受此类型的文件（image/*,.bin）。',
  },
  ar: {
    lang: 'ar',
    dropzone: 'أفلِت الملفات أو مجلدًا هنا',
    single: 'أفلِت ملفًا هنا',
    done: 'تم الرفع',
    clear: 'مسح القائمة',
    announced: 'تم رفع 2 من ملفين.',
    summary: /^تم رفع 2 من ملفين · 100 ?[%٪]/,
    refused: 'brochure.pdf: هذا النوع من الملفات غير مقبول (image/*,.bin).',
  },
} as const;
type LocaleName = keyof typeof EXPECTED;

/**
 * A text as compared here: without the Unicode isolates around file names (Arabic), bidi marks, Arabic-Indic
 * digits as Latin ones (which digits Intl writes in Arabic depends on the engine's data) and every space as
 * a plain one (French writes narrow no-break spaces).
 */
const plain = (text: string | null) =>
  (text ?? '')
    .replace(/[\u2068\u2069\u200e\u200f\u061c]/g, '')
    .replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x660))
    .replace(/\s/g, ' ');

let dir: string;
let example: RunningExample;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-locales-'));
  await writeFile(join(dir, 'page.js'), await bundlePage(new URL('./locales-page.tsx', import.meta.url)));
  const require = createRequire(import.meta.url);
  await copyFile(join(require.resolve('@upbeam/upload-react/package.json'), '../dist/components.css'), join(dir, 'components.css'));
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Upbeam locales</title><link rel="stylesheet" href="/components.css">' +
    '<style>body { margin: 0; font-family: system-ui, sans-serif; } .locales-page { padding: 24px; max-width: 760px; background: #fff; color: #0f172a; }</style>' +
    '</head><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
  await writeFile(join(dir, 'index.html'), html);
  example = await startExample(dir);
  // A route taking one file, whose rules the drop zone reads from the endpoint's GET; files sent without a
  // route (the Uploader's) go to a handler without routes (one with routes refuses a body naming none).
  const settings = { ...example.settings, stsClient: example.storage.stsClient };
  const plain = createUploadHandler(settings);
  const routed = createUploadHandler({ ...settings, routes: defineRoutes({ avatar: { allowedContentTypes: ['image/*'], maxFiles: 1 } }) });
  example.setUploadHandler(async (request) => {
    if (request.method === 'GET') return routed(request);
    const body = (await request.clone().json().catch(() => ({}))) as { route?: string };
    return body.route === undefined ? plain(request) : routed(request);
  });
}, 120_000);

afterAll(async () => {
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Records every text of the polite live region, then drops files made in the page: `[name, type, size]`. */
async function dropFiles(page: TestPage, list: [string, string, number][]): Promise<void> {
  await recordAnnouncements(page);
  await page.evaluate(async (files) => {
    const transfer = new DataTransfer();
    for (const [name, type, size] of files) {
      let blob: Blob = new Blob([new Uint8Array(size).fill(7)], { type });
      if (type === 'image/png') {
        const canvas = document.createElement('canvas');
        canvas.width = 16;
        canvas.height = 16;
        canvas.getContext('2d')!.fillRect(0, 0, 16, 16);
        blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      }
      transfer.items.add(new File([blob], name, { type }));
    }
    const zone = document.querySelector('[data-upbeam="dropzone"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      let event: Event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
      if ((event as DragEvent).dataTransfer !== transfer) {
        // An engine whose constructor drops the transfer: the same event, the property set.
        event = new Event(type, { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: transfer });
      }
      zone.dispatchEvent(event);
    }
  }, list);
}

/** Each row's status, in order. */
const statuses = (page: TestPage) => page.evaluate(() => Array.from(document.querySelectorAll('[data-upbeam="row"]'), (row) => row.getAttribute('data-status')), undefined);

/** The first row's thumbnail and name boxes, their left and right edges (CSS pixels). */
const rowBoxes = (page: TestPage) =>
  page.evaluate(() => {
    const box = (selector: string) => {
      const { left, right } = document.querySelector(`[data-upbeam="row"] ${selector}`)!.getBoundingClientRect();
      return { left, right };
    };
    return { thumbnail: box('[data-upbeam="thumbnail"]'), name: box('[data-upbeam="name"]'), direction: getComputedStyle(document.querySelector('[data-upbeam="row"]')!).direction };
  }, undefined);

describe.each(ENGINES)('the components in each shipped locale, in %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  async function open(query: string): Promise<void> {
    await page.goto(`${example.origin}/?${query}`);
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-upbeam="dropzone"]') !== null, undefined)).toBe(true);
  }

  it.each(Object.keys(EXPECTED) as LocaleName[])('%s: its words shown and announced, lang and dir on the region, laid out in its direction, axe finds no violation', async (name) => {
    const expected = EXPECTED[name];
    await open(`locale=${name}`);
    const region = 'section[data-upbeam="root"]';
    expect(await page.attribute(region, 'lang')).toBe(expected.lang);
    expect(await page.attribute(region, 'dir')).toBe(name === 'ar' ? 'rtl' : 'ltr');
    expect(await page.text('[data-upbeam="dropzoneLabel"]')).toBe(expected.dropzone);
    await dropFiles(page, [
      ['photo.png', 'image/png', 0],
      ['data.bin', 'application/octet-stream', 2048],
      ['brochure.pdf', 'application/pdf', 1024],
    ]);
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done', 'done']);
    expect(plain(await page.text('[data-upbeam="rejections"]'))).toBe(expected.refused);
    expect(await page.text('[data-upbeam="row"] [data-upbeam="status"]')).toBe(expected.done);
    expect(await page.text('[data-action="clear"]')).toBe(expected.clear);
    // The rows read their own file; the summary renders in the hook's transition, a render later.
    await expect.poll(async () => plain(await page.text('[data-upbeam="summary"]'))).toMatch(expected.summary);
    await expect.poll(async () => plain((await announcements(page)).at(-1) ?? '')).toBe(expected.announced);
    const { thumbnail, name: nameBox, direction } = await rowBoxes(page);
    if (name === 'ar') {
      expect(direction).toBe('rtl');
      expect(thumbnail.left).toBeGreaterThanOrEqual(nameBox.right);
    } else {
      expect(direction).toBe('ltr');
      expect(nameBox.left).toBeGreaterThanOrEqual(thumbnail.right);
    }
    expect(await audit(page)).toEqual([]);
  });

  it("a drop zone taking one file reads the singular line: maxFiles: 1 in English and French, a route's maxFiles: 1 in German", async () => {
    await open('single=1');
    expect(await page.text('[data-upbeam="dropzoneLabel"]')).toBe(EXPECTED.en.single);
    await open('single=1&locale=fr');
    expect(await page.text('[data-upbeam="dropzoneLabel"]')).toBe(EXPECTED.fr.single);
    await open('single=1&locale=de&route=avatar');
    // The route's rules arrive with the endpoint's GET: the plural line until then.
    await expect.poll(() => page.text('[data-upbeam="dropzoneLabel"]')).toBe(EXPECTED.de.single);
  });
});

/**
 * Builds a benchmark page with Vite, as an app built with Vite ships it: production React, code splitting,
 * and Vite's preload of a lazy chunk's imports, which loads them beside the chunk (`<link rel=modulepreload>`)
 * where a bare ES module import would fetch them one after the other. The page's entry is written as
 * `page.js` beside the `index.html` that {@link buildPage} writes, so {@link startPageServer} serves either.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { BENCH_DIR } from '../lib/paths';
import { PAGE_DIR, PAGE_HTML } from './page-server';

/** Where {@link buildPageWithVite} writes a page and what it bundles. */
export interface VitePageBuild {
  /** The page's entry file. @default src/upload/page.tsx */
  entry?: string;
  /** The folder written (emptied first). @default .tmp/page */
  outDir?: string;
  /** The path the page is served at (`/before/` for a page in a subfolder of the served one). @default / */
  base?: string;
  /** Vite plugins besides React's (e.g. one that resolves a package to another build of it). */
  plugins?: Plugin[];
}

/** Bundles the page with Vite into `outDir` (emptied first), beside the shared `index.html`. */
export async function buildPageWithVite({
  entry = join(BENCH_DIR, 'src', 'upload', 'page.tsx'),
  outDir = PAGE_DIR,
  base = '/',
  plugins = [],
}: VitePageBuild = {}): Promise<void> {
  await build({
    configFile: false,
    root: BENCH_DIR,
    base,
    logLevel: 'error',
    mode: 'production',
    plugins: [...plugins, react()],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      rollupOptions: {
        input: { page: entry },
        output: { entryFileNames: 'page.js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
  await writeFile(join(outDir, 'index.html'), PAGE_HTML);
}

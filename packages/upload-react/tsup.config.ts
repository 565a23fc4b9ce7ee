import { copyFile } from 'node:fs/promises';
import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  // The components are a subpath of their own: an app using the hook alone ships none of them.
  // The locales (`./locales`) are another: an app ships only the locale it imports, none with English alone.
  entry: { index: 'src/index.ts', components: 'src/components/index.ts', locales: 'src/components/locales/index.ts' },
  external: ['react'],
  // Keep the hook marked as a client module for React Server Components bundlers (Next.js App Router).
  banner: { js: "'use client';" },
  // The components' stylesheet ships as it is written: plain CSS, no build step.
  onSuccess: () => copyFile('src/components/components.css', 'dist/components.css'),
});

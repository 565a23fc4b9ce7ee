import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  external: ['react'],
  // Keep the hook marked as a client module for React Server Components bundlers (Next.js App Router).
  banner: { js: "'use client';" },
});

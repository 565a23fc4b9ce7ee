import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['react'],
  // Keep the hook marked as a client module for React Server Components bundlers (Next.js App Router).
  banner: { js: "'use client';" },
});

import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares: ESM and CJS with type declarations for both, source maps,
 * ES2022. A package adds its own entries, externals or banner.
 */
export function libraryConfig(options: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    ...options,
  });
}

import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares: ESM and CJS with type declarations for both, source maps,
 * ES2022. A package adds its own entries, externals or banner.
 */
export function libraryConfig(options: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    // tsup 8 passes `baseUrl: '.'` to the declaration build, which TypeScript 6 deprecates (TS5101, an error):
    // the option is tsup's, not ours. tsup 9, which drops it, needs Node 22.18.
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    clean: true,
    sourcemap: true,
    target: 'es2022',
    ...options,
  });
}

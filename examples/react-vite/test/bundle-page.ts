import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const exampleDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * A test page (`entry`, a `.tsx` beside the tests) bundled into one ES module with React's production build and
 * the built packages, as an app ships it (dynamic imports inlined).
 */
export async function bundlePage(entry: URL): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: exampleDir,
    // React's production build, JSX included (under vitest NODE_ENV is `test`, which would pick the dev runtime).
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    oxc: { jsx: { runtime: 'automatic', development: false } },
    build: {
      write: false,
      minify: false,
      lib: { entry: fileURLToPath(entry), formats: ['es'], fileName: 'page' },
      rollupOptions: { output: { codeSplitting: false } },
    },
  })) as { output: { type: string; code?: string }[] } | { output: { type: string; code?: string }[] }[];
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output).filter((chunk) => chunk.type === 'chunk');
  return chunks[0]!.code!;
}

import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Types from server to page: `test-types/page.tsx` uses the routes of `test-types/upload-routes.ts`
// (`defineRoutes`) through `import type`, with `@ts-expect-error` on every line that must not compile.

const here = join(import.meta.dirname, '..');
const fixtures = join(here, 'test-types');
const packages = join(here, '..');

describe('typed routes', () => {
  it('compile: right route names and serverData fields compile, wrong ones fail (tsc on test-types/page.tsx)', () => {
    const program = ts.createProgram([join(fixtures, 'page.tsx')], {
      strict: true,
      noEmit: true,
      jsx: ts.JsxEmit.ReactJSX,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      skipLibCheck: true,
      types: ['node'],
      // The packages' sources, so that the check needs no build.
      paths: {
        '@upbeam/upload-client': [join(packages, 'upload-client/src/index.ts')],
        '@upbeam/upload-protocol': [join(packages, 'upload-protocol/src/index.ts')],
        '@upbeam/upload-react': [join(packages, 'upload-react/src/index.ts')],
        '@upbeam/upload-react/components': [join(packages, 'upload-react/src/components/index.ts')],
        '@upbeam/upload-server': [join(packages, 'upload-server/src/index.ts')],
      },
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}:${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    // An unused `@ts-expect-error` (a wrong line that compiled) is an error too (TS2578).
    expect(errors).toEqual([]);
  }, 60_000);

  it("bundle: the page's bundle holds no server module (esbuild, as a bundler drops `import type`)", async () => {
    const result = await build({
      entryPoints: [join(fixtures, 'page.tsx')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      external: ['react', 'react/jsx-runtime'],
      alias: { '@upbeam/upload-react/components': join(here, 'src/components/index.ts'), '@upbeam/upload-react': join(here, 'src/index.ts') },
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('upload-client'))).toBe(true);
    expect(inputs.filter((path) => /upload-server|upload-routes|@aws-sdk/.test(path))).toEqual([]);
  }, 60_000);
});

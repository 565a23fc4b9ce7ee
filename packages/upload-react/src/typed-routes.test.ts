import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Types from server to page: `test-types/page.tsx` uses the routes of `test-types/upload-routes.ts`
// (`defineRoutes`) through `import type`, with `@ts-expect-error` on every line that must not compile.

const here = join(import.meta.dirname, '..');
const fixtures = join(here, 'test-types');
const packages = join(here, '..');

/** The diagnostics of tsc on `files` (strict, as an app), the packages taken from their sources (no build needed). */
function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
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
      '@upbeam/upload-server/next': [join(packages, 'upload-server/src/adapters/next.ts')],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}:${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/**
 * The files of the README's "Routes" section: each code block holds one or more files, each starting with a
 * `// path` comment line. Written under `dir`, with declarations of what the snippets leave to the app.
 */
function writeReadmeRoutesApp(dir: string): string[] {
  const readme = readFileSync(join(here, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Routes:'), readme.indexOf('### After the upload'));
  const written: string[] = [];
  for (const [, code] of section.matchAll(/```tsx?\n([\s\S]*?)```/g)) {
    for (const file of code!.split(/^(?=\/\/ app\/)/m)) {
      const path = /^\/\/ (app\/\S+)/.exec(file)?.[1];
      if (!path) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), file);
      written.push(join(dir, path));
    }
  }
  writeFileSync(
    join(dir, 'app/declared.d.ts'),
    'declare function getUser(request: Request): Promise<{ id: string } | undefined>;\n' +
      'declare const db: { users: { update(id: string, data: { avatarKey: string }): Promise<void> } };\n',
  );
  return [...written, join(dir, 'app/declared.d.ts')];
}

describe('typed routes', () => {
  it('compile: right route names and serverData fields compile, wrong ones fail (tsc on test-types/page.tsx)', () => {
    // An unused `@ts-expect-error` (a wrong line that compiled) is an error too (TS2578).
    expect(compile([join(fixtures, 'page.tsx')])).toEqual([]);
  }, 120_000);

  it("compile: the README's two-route app (server file, page files) compiles as written", () => {
    // Inside the package, so that `react` and its types resolve as in an app.
    const dir = mkdtempSync(join(here, '.readme-routes-'));
    try {
      const files = writeReadmeRoutesApp(dir);
      expect(files.map((file) => file.slice(dir.length + 1))).toEqual(
        expect.arrayContaining(['app/api/s3-upload/upload-routes.ts', 'app/api/s3-upload/route.ts', 'app/upload.ts', 'app/profile/avatar-picker.tsx']),
      );
      expect(compile(files)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

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
  }, 120_000);
});

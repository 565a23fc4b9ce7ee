import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../test/typed-routes';

// Types from server to page: `test-types/page.tsx` uses the routes of `test-types/upload-routes.ts`
// (`defineRoutes`) through `import type`, with `@ts-expect-error` on every line that must not compile.

const here = join(import.meta.dirname, '..');
const fixtures = join(here, 'test-types');

/**
 * The docs' routes sample (`docs/samples/routes/app/**`, included into the Routes guide): copied under `dir`,
 * with its declarations of what the sample leaves to the app (`declared.d.ts`).
 */
function writeRoutesSampleApp(dir: string): string[] {
  const sample = join(here, '../../docs/samples/routes');
  cpSync(join(sample, 'app'), join(dir, 'app'), { recursive: true });
  return readdirSync(join(dir, 'app'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => join(dir, 'app', file));
}

describe('typed routes', () => {
  it('compile: right route names and serverData fields compile, wrong ones fail (tsc on test-types/page.tsx)', () => {
    // An unused `@ts-expect-error` (a wrong line that compiled) is an error too (TS2578).
    expect(compile([join(fixtures, 'page.tsx')])).toEqual([]);
  }, 120_000);

  it("compile: the docs' two-route sample app (server file, page files) compiles as written", () => {
    // Inside the package, so that `react` and its types resolve as in an app.
    const dir = mkdtempSync(join(here, '.routes-sample-'));
    try {
      const files = writeRoutesSampleApp(dir);
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

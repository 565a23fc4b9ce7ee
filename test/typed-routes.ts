import ts from 'typescript';

// The typed-routes tests of the bindings (`packages/upload-*/src/typed-routes.test.ts`): a page of the
// binding's `test-types/` that uses the routes of `packages/upload-react/test-types/upload-routes.ts`
// (`defineRoutes`) through `import type`, with `@ts-expect-error` on every line that must not compile.

const packages = `${import.meta.dirname}/../packages`;

/** Each package's entry points, mapped to its sources, so that a check needs no build. */
const SOURCES: Record<string, string> = {
  '@upbeam/upload-client': 'upload-client/src/index.ts',
  '@upbeam/upload-client/drop-zone': 'upload-client/src/drop-zone.ts',
  '@upbeam/upload-protocol': 'upload-protocol/src/index.ts',
  '@upbeam/upload-react': 'upload-react/src/index.ts',
  '@upbeam/upload-react/components': 'upload-react/src/components/index.ts',
  '@upbeam/upload-server': 'upload-server/src/index.ts',
  '@upbeam/upload-server/next': 'upload-server/src/adapters/next.ts',
  '@upbeam/upload-vue': 'upload-vue/src/index.ts',
  '@upbeam/upload-svelte': 'upload-svelte/src/index.ts',
  '@upbeam/upload-solid': 'upload-solid/src/index.ts',
  '@upbeam/upload-angular': 'upload-angular/src/index.ts',
};

/** The diagnostics of tsc on `files` (strict, as an app), the packages taken from their sources (no build needed). */
export function compile(files: string[]): string[] {
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
    paths: Object.fromEntries(Object.entries(SOURCES).map(([name, path]) => [name, [`${packages}/${path}`]])),
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}:${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

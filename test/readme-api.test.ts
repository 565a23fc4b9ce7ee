import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's API reference is checked against the packages' entry points: every public export (value
// or type) of every entry a package.json exports must be named in the README, in backticks.

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/**
 * Source files of a package's public entries: `./dist/x.js` in the exports map is `src/x.ts`; the worker build
 * of upload-server (`./dist/worker/x.js`, the `workerd`/`worker`/`edge-light` conditions) is built from the same
 * `src/x.ts`.
 */
function entryFiles(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const targets = Object.entries(pkg.exports as Record<string, unknown>)
    .filter(([subpath]) => subpath !== './package.json')
    .flatMap(([, target]) => [...JSON.stringify(target).matchAll(/\.\/dist\/(?:worker\/)?([\w/-]+)\.js/g)].map((match) => match[1]))
    .filter((path): path is string => path !== undefined);
  return [...new Set(targets)].map((path) => join(dir, 'src', `${path}.ts`));
}

/** Names an entry file exports: `export { a, type B, c as d }`, `export function x`, `export const y`, ... */
function exportedNames(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const names = new Set<string>();
  for (const [, list] of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()?.trim();
      if (name) names.add(name);
    }
  }
  for (const [, name] of source.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:function|const|class|interface|type|let)\s+(\w+)/g)) {
    names.add(name!);
  }
  return [...names];
}

const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));

describe('README API reference', () => {
  it.each(packages.flatMap((dir) => entryFiles(dir).map((file) => [file.slice(root.length + 1), file])))(
    'names every export of %s',
    (_, file) => {
      const missing = exportedNames(file).filter((name) => !readme.includes(`\`${name}`));
      expect(missing, `not in README.md: ${missing.join(', ')}`).toEqual([]);
    },
  );
});

// The entry points of the published packages, read from their exports maps: shared by the API reports
// (scripts/api-report.mjs) and the docs site's API reference (docs/scripts/api-reference.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry point of the published packages: `{ name, packageDir, declarationFile, reportName }`. */
export function entryPoints(root) {
  const entries = [];
  for (const dirName of readdirSync(join(root, 'packages')).sort()) {
    const packageDir = join(root, 'packages', dirName);
    const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    const unscoped = pkg.name.replace(/^@[^/]+\//, '');
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      // package.json and stylesheets (`./components.css`) are no JavaScript API.
      // A stylesheet's export may carry `types` (an empty module, so that its side-effect import type-checks).
      if (subpath === './package.json' || typeof target === 'string' || subpath.endsWith('.css')) continue;
      // `import.types`, or `types` of an ESM-only package's one condition set (@upbeam/upload-angular).
      const types = target.import?.types ?? target.types;
      if (!types) throw new Error(`${pkg.name}: exports["${subpath}"].import.types is missing`);
      entries.push({
        name: pkg.name + subpath.slice(1),
        packageDir,
        declarationFile: join(packageDir, types),
        reportName: subpath === '.' ? unscoped : `${unscoped}-${subpath.slice(2).replaceAll('/', '-')}`,
      });
    }
  }
  return entries;
}

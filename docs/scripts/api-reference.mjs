// The API reference of the docs site, generated from the TSDoc: TypeDoc with typedoc-plugin-markdown (and its
// VitePress theme, which writes the sidebar) reads the built declaration files of every published entry point
// (the ones the API reports in api/ cover) and writes one markdown page per entry and per export into
// docs/reference/api/ (generated, not checked in). Run `pnpm run build` first.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Application } from 'typedoc';
import { entryPoints } from '../../scripts/entry-points.mjs';

const docs = join(import.meta.dirname, '..');
const root = join(docs, '..');
const out = join(docs, 'reference/api');

const entries = entryPoints(root);
const missing = entries.filter((entry) => !existsSync(entry.declarationFile));
if (missing.length > 0) {
  console.error(`api-reference: not built: ${missing.map((entry) => entry.name).join(', ')} (run \`pnpm run build\` first)`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({
  entryPoints: entries.map((entry) => entry.declarationFile),
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
  out,
  tsconfig: join(docs, 'tsconfig.api.json'),
  readme: 'none',
  name: 'API reference',
  entryFileName: 'index',
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  excludePrivate: true,
  excludeInternal: true,
  sort: ['kind', 'alphabetical'],
  docsRoot: docs,
  sidebar: { pretty: true },
  validation: { notExported: false, invalidLink: true },
  logLevel: 'Warn',
});
const project = await app.convert();
if (!project) process.exit(1);
// Each entry is named as users import it (`@upbeam/upload-server/next`), not by its declaration file.
for (const module of project.children ?? []) {
  const entry = entries.find((candidate) => candidate.declarationFile === module.sources?.[0]?.fullFileName);
  if (!entry) throw new Error(`api-reference: no entry point for the module ${module.name}`);
  module.name = entry.name;
}
// "Defined in" would name a built chunk (dist/handler-D2-Bovov.d.ts), of no use to a reader.
for (const reflection of Object.values(project.reflections)) reflection.sources = undefined;
await app.generateOutputs(project);
if (app.logger.hasErrors()) process.exit(1);
console.log(`api-reference: ${entries.length} entry points -> ${out}`);

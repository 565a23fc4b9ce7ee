import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs' code samples are files (docs/samples/), type-checked by `pnpm run typecheck` (the docs package's
// `tsc -p docs/tsconfig.json`) and included into the pages with VitePress's snippet import
// (`<<< @/samples/...`, `@` being docs/). VitePress renders a missing snippet as text and builds on: this
// checks that every import names a sample, and that every sample is shown by some page.

const docs = join(import.meta.dirname, '../docs');
const SKIPPED = new Set(['node_modules', '.vitepress', 'samples', 'scripts', 'api']);

function files(dir: string, test: (name: string) => boolean, skipped = new Set<string>()): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, test, skipped);
    return test(entry.name) ? [path] : [];
  });
}

const imports = files(docs, (name) => name.endsWith('.md'), SKIPPED).flatMap((page) =>
  [...readFileSync(page, 'utf8').matchAll(/^<<< @\/(\S+?)(?:[{#[]\S*)?$/gm)].map((match) => ({
    page: relative(docs, page),
    sample: match[1]!,
  })),
);

describe('docs samples', () => {
  it('every snippet import of a page names a file of docs/samples/', () => {
    expect(imports.length).toBeGreaterThanOrEqual(9);
    const missing = imports.filter(({ sample }) => !sample.startsWith('samples/') || !existsSync(join(docs, sample)));
    expect(missing).toEqual([]);
  });

  it('every sample is shown by a page (declaration files aside)', () => {
    const shown = new Set(imports.map(({ sample }) => sample));
    const samples = files(join(docs, 'samples'), (name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'));
    expect(samples.map((sample) => relative(docs, sample)).filter((sample) => !shown.has(sample))).toEqual([]);
  });
});

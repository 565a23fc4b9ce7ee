import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The code, the README and the docs' guides cite the specification as `SPEC n` or `SPEC n.m`: each cited
// section must be a numbered heading of docs/spec.md (`## n. Title`, `### n.m Title`).

const root = join(import.meta.dirname, '..');
const spec = readFileSync(join(root, 'docs/spec.md'), 'utf8');
const sections = new Set([...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[.\s]/gm)].map((match) => match[1]));

const SOURCE = /\.(?:ts|tsx|mts|vue|svelte|md)$/;
const SKIPPED = new Set(['node_modules', 'dist', '.turbo', '.data', '.work']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

const cited = [join(root, 'README.md'), ...['packages', 'examples', 'tools', 'docs/guide'].flatMap((dir) => files(join(root, dir)))]
  .flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bSPEC (\d+(?:\.\d+)?)\b/g)].map((match) => ({
      where: relative(root, file),
      section: match[1]!,
    })),
  );

describe('docs/spec.md', () => {
  it('has numbered sections 1 to 9', () => {
    expect([...sections].filter((section) => !section.includes('.'))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('has every section the code and the README cite as SPEC n', () => {
    expect(cited.length).toBeGreaterThan(20);
    const missing = cited.filter(({ section }) => !sections.has(section)).map(({ where, section }) => `${where}: SPEC ${section}`);
    expect(missing).toEqual([]);
  });
});

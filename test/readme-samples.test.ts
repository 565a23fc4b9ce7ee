import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fences, root } from './markdown';

// The README's code is the docs' samples: each TypeScript block of README.md is, line for line, a file of
// docs/samples/ (which `pnpm run typecheck` compiles, docs/tsconfig.json) or a region of one, named on the
// line before its fence:
//
//   <!-- sample: docs/samples/next/app/api/s3-upload/route.ts -->
//   <!-- sample: docs/samples/routes/app/api/s3-upload/upload-routes.ts#readme -->
//
// A region is VitePress's snippet region (`// #region readme` ... `// #endregion readme`), so that a page can
// include the same lines with `<<< @/samples/...#readme`. GitHub shows no HTML comment.

const CODE = new Set(['ts', 'tsx', 'js', 'jsx', 'mts', 'vue', 'svelte']);
const MARKER = /^<!-- sample: (docs\/samples\/[\w./-]+?)(?:#([\w-]+))? -->$/;

/** The lines between `// #region name` and `// #endregion name` (markers excluded), or `undefined`. */
function region(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line) => line.trim() === `// #endregion ${name}`);
  return start === -1 || end <= start ? undefined : lines.slice(start + 1, end).join('\n');
}

const blocks = fences(readFileSync(join(root, 'README.md'), 'utf8'))
  .filter(({ lang }) => CODE.has(lang))
  .map((fence) => {
    const marker = MARKER.exec(fence.before.trim());
    return { ...fence, where: `README.md:${fence.line}`, sample: marker?.[1], region: marker?.[2] };
  });

describe("the README's code samples", () => {
  it('name each the file of docs/samples/ they show, on the line before the fence', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.filter(({ sample }) => !sample).map(({ where, before }) => `${where} (line before: ${before})`)).toEqual([]);
  });

  it('name only TypeScript files the typecheck compiles (docs/samples/**/*.ts, *.tsx, no declaration file)', () => {
    const named = blocks.flatMap(({ where, sample }) => (sample ? [{ where, sample }] : []));
    const wrong = named.filter(({ sample }) => !/\.tsx?$/.test(sample) || sample.endsWith('.d.ts') || !existsSync(join(root, sample)));
    expect(wrong.map(({ where, sample }) => `${where}: ${sample}`)).toEqual([]);
  });

  it('are, line for line, the file or the region they name', () => {
    for (const { where, sample, region: name, code } of blocks) {
      if (!sample || !existsSync(join(root, sample))) continue;
      const text = readFileSync(join(root, sample), 'utf8');
      const shown = name ? region(text, name) : text;
      expect(shown, `${where}: ${sample}${name ? `#${name}` : ''}`).toBeDefined();
      expect(code.trimEnd(), `${where}: ${sample}${name ? `#${name}` : ''}`).toBe(shown!.trimEnd());
    }
  });
});

// The README sells and routes; everything else lives in the docs (issue "Docs that a newcomer finishes": at most
// 200 lines).
describe('README.md', () => {
  it('is at most 200 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
  });
});

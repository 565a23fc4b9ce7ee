import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Cold start (bench/RESULTS.md, "Cold start"): importing the package or its node adapter loads no AWS SDK
// module; the SDK is imported on the first request (src/sdk.ts). Checked on the build, as an app loads it:
// every module the entry imports statically, chunk after chunk, and the packages they name.
const DIST = resolve(import.meta.dirname, '../dist');

/** The packages an ESM file of dist/ loads at import, following its static imports of other dist files. */
async function staticPackages(entry: string, seen = new Set<string>()): Promise<Set<string>> {
  const packages = new Set<string>();
  if (seen.has(entry)) return packages;
  seen.add(entry);
  const code = await readFile(entry, 'utf8');
  for (const [, specifier] of code.matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.')) {
      for (const name of await staticPackages(join(dirname(entry), specifier), seen)) packages.add(name);
    } else packages.add(specifier);
  }
  return packages;
}

describe('the built package loads no AWS SDK at import', () => {
  it.each(['index.js', 'adapters/node.js', 'adapters/next.js'])('%s', async (entry) => {
    const packages = [...(await staticPackages(join(DIST, entry)))];
    expect(packages.filter((name) => name.startsWith('@aws-sdk/') || name.startsWith('@smithy/'))).toEqual([]);
  });
});

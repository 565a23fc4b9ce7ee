import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The client's module Workers (hash, image, preview) are its own files, started with
// `new Worker(new URL('./x-worker.js', import.meta.url))`: the Angular CLI does not emit them for a library, so
// angular.json copies the client's files next to the bundle (without them the client hashes on the page's thread).
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

describe('the Angular build carries the client workers', () => {
  it('each worker the bundle starts is in dist/, with the modules it imports', () => {
    const bundle = readdirSync(dist).filter((name) => name.endsWith('.js')).map((name) => readFileSync(`${dist}${name}`, 'utf8')).join('\n');
    const started = [...bundle.matchAll(/new Worker\(new URL\("\.\/([\w-]+\.js)"/g)].map((match) => match[1]!);
    expect(started).toContain('hash-worker.js');
    for (const worker of new Set(started)) {
      expect(existsSync(`${dist}${worker}`), worker).toBe(true);
      const imports = [...readFileSync(`${dist}${worker}`, 'utf8').matchAll(/from\s*"\.\/([\w-]+\.js)"/g)].map((match) => match[1]!);
      for (const name of imports) expect(existsSync(`${dist}${name}`), `${worker} imports ${name}`).toBe(true);
    }
  });
});

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { TestPage } from '@upbeam/test-browser';

/** axe-core's script, read once for the test file. */
let axeSource: Promise<string> | undefined;

/**
 * Runs axe-core on the whole page (its script evaluated in the page on the first audit there); the violations as
 * `rule: targets`, none on an accessible page.
 */
export async function audit(page: TestPage): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(
    (code) => {
      // Indirect eval: axe-core's source defines `window.axe`.
      if (!(window as unknown as { axe?: unknown }).axe) (0, eval)(code);
    },
    await axeSource,
  );
  return page.evaluate(async () => {
    const { violations } = await (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
    ).axe.run(document);
    return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, undefined);
}

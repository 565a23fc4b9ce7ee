/**
 * `pnpm run screenshots` (at the repository's root): the pictures of the ready-made components in
 * `docs/screenshots/`, light and dark, shown in the README. Builds nothing: run `pnpm build` first.
 */
import { fileURLToPath } from 'node:url';
import { takeComponentScreenshots } from './component-screenshots';

for (const path of await takeComponentScreenshots(fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url)))) console.log(`Wrote ${path}`);

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitepress';

// The docs site: guides (one markdown file per topic in guide/), the specification (spec.md), and the API
// reference that scripts/api-reference.mjs generates from the TSDoc into reference/api/ (with its sidebar).
// A dead internal link fails the build (VitePress's default); links out of the site into the repository
// (../../packages/..., ../../bench/RESULTS.md, ../../api/) are the only ones let through: they lead to the
// repository's files when the docs are read in the repository (GitHub renders the markdown), not on a
// deployed site, as the root package.json names no repository URL to turn them into. test/docs-links.test.ts
// checks that each leads to a file or folder that exists, and every #anchor of the docs and the READMEs.

const apiSidebar = JSON.parse(readFileSync(join(import.meta.dirname, '../reference/api/typedoc-sidebar.json'), 'utf8'));

const guides: [string, string][] = [
  ['Getting started', 'getting-started'],
  ['The three strategies', 'strategies'],
  ['Routes', 'routes'],
  ['Large files and resume', 'large-files'],
  ['Checksums and no overwrites', 'checksums'],
  ['Many files and the drop zone', 'many-files'],
  ['The components', 'components'],
  ['The user\'s language', 'locales'],
  ['Images prepared before upload', 'images'],
  ['Previews that stay cheap', 'previews'],
  ['Angular', 'angular'],
  ['Solid', 'solid'],
  ['Persistence', 'persistence'],
  ['Background uploads', 'background-uploads'],
  ['The completion hook and reconcile', 'completion-hook'],
  ['Running on many servers', 'many-servers'],
  ['Telemetry', 'telemetry'],
  ['Security and what storage enforces', 'security'],
  ['Providers and the doctor', 'providers'],
  ['Adapters and runtimes', 'runtimes'],
  ['Local development', 'local-development'],
  ['Migrating from next-s3-upload and Uppy', 'migrating'],
  ['Size and speed', 'performance'],
  ['Troubleshooting', 'troubleshooting'],
];

export default defineConfig({
  title: 'Upbeam',
  description: 'Browser uploads straight to S3-compatible object storage, with progress; your server only prepares them.',
  // Only what the site is built from: the package folder's own files stay out.
  srcExclude: ['README.md', 'node_modules/**', 'samples/**', 'scripts/**'],
  // Links that leave the site for the repository's own folders (resolved by VitePress as ./../../packages/...).
  ignoreDeadLinks: [/^\.\/(\.\.\/)+(packages|examples|bench|api)(\/|$)/],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'API reference', link: '/reference/' },
      { text: 'Specification', link: '/spec' },
    ],
    sidebar: {
      '/guide/': [{ text: 'Guide', items: guides.map(([text, page]) => ({ text, link: `/guide/${page}` })) }],
      '/reference/': [{ text: 'API reference', link: '/reference/', items: apiSidebar }],
    },
    search: { provider: 'local' },
    outline: [2, 3],
  },
});

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, githubSlug, headingAnchors, isSitePage, links, markdownFiles, root, vitepressSlug } from './markdown';

// Every relative link of the repository's markdown leads somewhere: to a file or folder that exists and, with
// a `#anchor`, to a heading of that page. A docs page resolves its links as VitePress does (`./page` meaning
// `page.md`, `/` the docs folder), any other markdown (README.md, the packages' READMEs) as GitHub does (paths
// as written). An anchor is slugged as VitePress slugs a heading when a docs page links to a docs page, as
// GitHub does for every other link (README.md into the guides, the guides into bench/RESULTS.md). VitePress's own dead-link check at `docs:build` sees pages but not anchors, and
// lets through links from the docs into the repository's folders (packages/, examples/, bench/, api/: see
// `ignoreDeadLinks` in docs/.vitepress/config.mts): this checks those too. The API reference TypeDoc
// generates (docs/reference/api/, not checked in) is left to VitePress's check.

const EXTERNAL = /^(?:[a-z][a-z+.-]*:|\/\/)/i;
const generated = join(docs, 'reference/api');

interface Resolved {
  /** The file or folder the link leads to (absolute). */
  path: string;
  /** The page whose headings its anchor names: the path itself, or a folder's index or README. */
  page?: string;
}

/** The absolute path a link's path names from `file` (a path from the root): `/` is the docs folder in a docs page. */
function located(file: string, path: string): string {
  if (path === '') return join(root, file);
  return path.startsWith('/') && isSitePage(file) ? join(docs, path) : join(root, dirname(file), path);
}

/** Where a link's path leads from `file`, as the renderer of `file` resolves it; `undefined` if nowhere. */
function resolve(file: string, path: string): Resolved | undefined {
  const site = isSitePage(file);
  const from = located(file, path);
  const candidates = site ? [from, `${from}.md`, from.replace(/\.html$/, '.md'), join(from, 'index.md')] : [from];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) return undefined;
  if (!statSync(found).isDirectory()) return { path: found, page: found.endsWith('.md') ? found : undefined };
  // A docs folder's page is its index.md (VitePress); a repository folder's, its README.md (GitHub).
  const index = join(found, site && found.startsWith(docs) ? 'index.md' : 'README.md');
  return { path: found, page: existsSync(index) ? index : undefined };
}

const checked = markdownFiles().flatMap((file) =>
  links(readFileSync(join(root, file), 'utf8'))
    .filter(({ target }) => !EXTERNAL.test(target))
    .map(({ target, line }) => {
      const [path = '', anchor] = target.split('#') as [string, string | undefined];
      return { where: `${file}:${line}`, file, target, path: decodeURI(path), anchor };
    }),
)
  .filter(({ file, path }) => !(isSitePage(file) && located(file, path).startsWith(generated + sep)));

describe('links in the markdown', () => {
  it('reads the links of the README, the guides and the package READMEs', () => {
    const files = new Set(checked.map(({ file }) => file));
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'guide', 'getting-started.md'));
    expect(checked.length).toBeGreaterThan(50);
  });

  it('lead to a file or folder that exists (the docs into the repository folders too)', () => {
    const dead = checked
      .filter(({ file, path }) => !resolve(file, path))
      .map(({ where, target }) => `${where}: ${target}`);
    expect(dead).toEqual([]);
  });

  it('stay inside the repository', () => {
    const outside = checked
      .map(({ where, target, file, path }) => ({ where, target, to: relative(root, resolve(file, path)?.path ?? root) }))
      .filter(({ to }) => to.startsWith('..'))
      .map(({ where, target }) => `${where}: ${target}`);
    expect(outside).toEqual([]);
  });

  it("name with each #anchor a heading of the page, slugged as that page's renderer slugs it", () => {
    const anchored = checked.filter(({ anchor }) => anchor !== undefined);
    expect(anchored.length).toBeGreaterThan(10);
    const broken = anchored
      .filter(({ file, path, anchor }) => {
        const page = resolve(file, path)?.page;
        if (!page) return true;
        // A docs page opened from a docs page is VitePress's; anything else is opened on GitHub.
        const slug = isSitePage(file) && isSitePage(relative(root, page)) ? vitepressSlug : githubSlug;
        return !headingAnchors(readFileSync(page, 'utf8'), slug).has(decodeURIComponent(anchor!));
      })
      .map(({ where, target }) => `${where}: ${target}`);
    expect(broken).toEqual([]);
  });
});

import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// Reading the repository's markdown as the tests of the docs need it: the files, their fenced code blocks,
// their headings (slugged as the page's renderer slugs them) and their links. Line-based, for the markdown
// this repository writes (ATX headings, backtick or tilde fences, inline and reference links).

export const root = join(import.meta.dirname, '..');
export const docs = join(root, 'docs');

const SKIPPED = new Set(['node_modules', 'dist', '.turbo', '.data', '.work', '.git', '.changeset', '.node', 'test-results']);

/**
 * The markdown a reader opens, as paths from the repository root: the READMEs, CONTRIBUTING.md, the docs'
 * pages, bench/*.md. The API reports (`api/*.api.md`, generated) and the generated API reference
 * (`docs/reference/api/`) are left out.
 */
export function markdownFiles(dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.has(name) || path === join(docs, 'reference/api')) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') && !name.endsWith('.api.md') ? [relative(root, path)] : [];
  });
}

/** Whether a markdown file (a path from the root) is a page of the docs site, rendered by VitePress. */
export function isSitePage(file: string): boolean {
  return file.startsWith(`docs${sep}`) && !file.endsWith(`${sep}README.md`);
}

/** A fenced code block: its language, its code (no trailing newline), and the line before its fence. */
export interface Fence {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** 1-based line of the closing fence (the last line when the block is not closed). */
  end: number;
  /** The line just before the opening fence (`''` for the first line). */
  before: string;
}

/** The fenced code blocks of a markdown text. */
export function fences(text: string): Fence[] {
  const lines = text.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, marker, lang] = open;
    const closes = (line: string) => line.trim().startsWith(marker!) && /^(`+|~+)$/.test(line.trim());
    const closing = lines.findIndex((line, j) => j > i && closes(line));
    const close = closing === -1 ? lines.length : closing;
    found.push({ lang: lang!, code: lines.slice(i + 1, close).join('\n'), line: i + 1, end: Math.min(close + 1, lines.length), before: lines[i - 1] ?? '' });
    i = close;
  }
  return found;
}

/** The text outside fenced code blocks (each block's lines kept, emptied, so that line numbers hold). */
export function prose(text: string): string {
  const lines = text.split('\n');
  for (const fence of fences(text)) {
    for (let i = fence.line - 1; i < fence.end; i++) lines[i] = '';
  }
  return lines.join('\n');
}

/**
 * VitePress's heading slug (its `slugify`, vitepress/dist/node, as of VitePress 1.6): NFKD, combining marks
 * and control characters dropped, each run of spaces and ASCII punctuation one `-`, no `-` at either end, a
 * leading digit prefixed with `_`, lower case.
 */
export function vitepressSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** GitHub's heading slug (github-slugger): lower case, punctuation but `-` and `_` dropped, each space a `-`. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The anchors of a markdown text's headings, as `slug` makes them from each heading's text (inline code,
 * emphasis and link markup removed); a heading's `{#id}` is its anchor; a repeated slug gets `-1`, `-2`, ...
 */
export function headingAnchors(text: string, slug: (text: string) => string): Set<string> {
  const anchors = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const heading = match[1]!;
    const explicit = /\{#([\w-]+)\}\s*$/.exec(heading);
    if (explicit) {
      anchors.add(explicit[1]!);
      continue;
    }
    const plain = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const base = slug(plain);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** A link of a markdown text: its target as written, and the 1-based line it is on. */
export interface Link {
  target: string;
  line: number;
}

/** The links and images of a markdown text outside code: `[text](target)`, `![alt](target)`, `[label]: target`. */
export function links(text: string): Link[] {
  const lines = prose(text).split('\n');
  return lines.flatMap((raw, index) => {
    const line = raw.replace(/`[^`]*`/g, '');
    const inline = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
    const reference = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(line);
    return [...inline, ...(reference ? [reference[1]!] : [])].map((target) => ({ target, line: index + 1 }));
  });
}

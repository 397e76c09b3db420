import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/**
 * The README and docs/ as a reader clicks through them (issue 43, item 9): every relative link
 * reaches a file, every `#anchor` a heading of the page it names (GitHub's slugs), and the README
 * stays a page read in minutes that starts with the two Quick start commands.
 */

/** The pages checked: the README and every Markdown file of docs/. */
function pages(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** The lines of a page outside fenced code blocks (``` or ~~~), with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const open = /^\s*(```|~~~)/.exec(l);
    if (open) {
      if (fence === undefined) fence = open[1];
      else if (open[1] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** GitHub's anchor for a heading (github-slugger): the text as rendered, lower-cased, punctuation dropped, spaces as `-`. */
function slug(heading: string): string {
  const rendered = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  return rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page: one per heading, a repeated one suffixed `-1`, `-2`… as GitHub does. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: l } of proseLines(text)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base);
    out.add(n === undefined ? base : `${base}-${n}`);
    seen.set(base, (n ?? 0) + 1);
  }
  return out;
}

/** The link targets of a page's prose (inline code left out), with their lines. */
function links(text: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  for (const { line, text: l } of proseLines(text)) {
    const prose = l.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ line, target: m[1]! });
  }
  return out;
}

/** What is wrong with each relative link of the pages: `page:line: target (why)`. */
function brokenLinks(read: (page: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const page of pages()) {
    const text = read(page)!;
    for (const { line, target } of links(text)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not ours to check offline
      const [file, anchor] = target.split('#', 2) as [string, string | undefined];
      const targetPage = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
      const where = `${page}:${line}: ${target}`;
      if (targetPage.startsWith('..') || !existsSync(path.join(repoRoot, targetPage))) {
        problems.push(`${where} (no such file)`);
        continue;
      }
      if (anchor === undefined) continue;
      const targetText = targetPage.endsWith('.md') ? read(targetPage) : undefined;
      if (targetText === undefined) problems.push(`${where} (an anchor in a file that is not Markdown)`);
      else if (!anchors(targetText).has(decodeURIComponent(anchor))) problems.push(`${where} (no such heading)`);
    }
  }
  return problems;
}

const fromDisk = (page: string): string | undefined => {
  const file = path.join(repoRoot, page);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

describe('the README and docs/', () => {
  it('every relative link reaches a file and every #anchor a heading of the page it names', () => {
    expect(brokenLinks(fromDisk)).toEqual([]);
  });

  it('catches a link to a heading that is not there (the README once linked the fleet by an old title)', () => {
    const readme = fromDisk('README.md')!;
    const broken = `${readme}\nSee [the fleet](#relctl-fleet-list--audit--report-every-repository-of-an-ecosystem-at-once) and [x](docs/nowhere.md).\n`;
    const problems = brokenLinks((page) => (page === 'README.md' ? broken : fromDisk(page)));
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md:\d+: #relctl-fleet-list--audit--report-every-repository-of-an-ecosystem-at-once \(no such heading\)$/),
      expect.stringMatching(/^README\.md:\d+: docs\/nowhere\.md \(no such file\)$/),
    ]);
  });

  it('slugs headings as GitHub does: code, punctuation and repeats', () => {
    expect([...anchors('# `relctl release`, `relctl run STEP...`\n## CI reports: `--format sarif|junit|gitlab`\n## Notes\n## Notes\n```\n# not a heading\n```\n')]).toEqual([
      'relctl-release-relctl-run-step',
      'ci-reports---format-sarifjunitgitlab',
      'notes',
      'notes-1',
    ]);
  });

  it('the README is a page read in minutes, its Quick start the two commands in one block', () => {
    const readme = fromDisk('README.md')!;
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const quick = readme.slice(readme.indexOf('## Quick start'));
    const block = /```sh\n([\s\S]*?)```/.exec(quick.slice(0, quick.indexOf('\n## ', 5)));
    expect(block?.[1]).toBe('npm ci && npm run demo\nnpm test\n');
    // The reference it no longer holds is one click away.
    for (const doc of ['docs/commands.md', 'docs/fleet.md', 'docs/configuration.md', 'docs/output.md', 'docs/development.md']) expect(readme).toContain(`](${doc})`);
    expect(readme).toContain('](docs/fleet-report.png)');
  });
});

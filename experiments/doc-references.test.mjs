// The paths the repository's READMEs and docs name still lead somewhere after reports, scripts and
// data moved between @kreplay/bench, @kreplay/native and this package: every relative link, every
// path under examples/, scripts/ or experiments/ written in backticks, and every file the tables of
// the example and result READMEs list. A folder of reports or data holds nothing its README leaves out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const skipped = new Set(['node_modules', '.git', '.changeset', '.turbo', '.tsc', 'dist', 'build', 'prebuilds', 'bundle', '.device']);

/** Every markdown file of the repository, as paths from its root. */
function markdownFiles(folder = root) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

/** The folders a path in `doc` may be written from: the doc's own and each above it, and packages/bench (`examples/...`). */
function basesOf(doc) {
  const bases = [join(root, 'packages', 'bench')];
  for (let folder = dirname(join(root, doc)); ; folder = dirname(folder)) {
    bases.push(folder);
    if (folder === root || folder === dirname(folder)) break;
  }
  return [...bases, join(root, 'packages')];
}

/** Paths under examples/, scripts/ or experiments/ in backticks, word by word (commands hold them among other words). */
function backtickedPaths(text) {
  const paths = [];
  for (const [, span] of text.matchAll(/`([^`]+)`/g)) {
    for (const word of span.split(/\s+/)) {
      if (!/(^|\/)(examples|scripts|experiments)\//.test(word) || /[<>*$={}|]|^https?:/.test(word)) continue;
      paths.push(word.replace(/[),.;:]+$/, ''));
    }
  }
  return paths;
}

/** Relative link targets of markdown links, without their anchors. */
function linkTargets(text) {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target.split('#')[0]).filter((target) => target && !/^[a-z]+:/.test(target));
}

/** The names in the first cell of each table row, `.ext` standing for the name before it with that extension. */
function tableNames(text) {
  const names = [];
  for (const line of text.split('\n')) {
    const cell = /^\| *(`[^|]+`) *\|/.exec(line)?.[1];
    if (!cell) continue;
    let previous = '';
    for (const [, name] of cell.matchAll(/`([^`]+)`/g)) {
      const full = name.startsWith('.') ? previous.replace(/\.[^./]+$/, '') + name : name;
      names.push(full.replace(/\/$/, ''));
      previous = full;
    }
  }
  return names;
}

const docs = markdownFiles();
const listings = ['packages/bench/examples/README.md', 'experiments/results/README.md', 'experiments/results/overhead-history-h200/README.md'];

describe('references in the docs', () => {
  it('finds the docs', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'experiments/README.md', ...listings]));
  });

  it.each(docs)('%s: every link and every examples/, scripts/ or experiments/ path leads somewhere', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const missingLinks = linkTargets(text).filter((target) => !existsSync(join(root, dirname(doc), target)));
    const missingPaths = backtickedPaths(text).filter((path) => !basesOf(doc).some((base) => existsSync(join(base, path))));
    expect({ missingLinks, missingPaths }).toEqual({ missingLinks: [], missingPaths: [] });
  });

  it.each(listings)('%s: every file its table lists is there, and it names everything beside it', (listing) => {
    const folder = dirname(join(root, listing));
    const text = readFileSync(join(root, listing), 'utf8');
    const names = tableNames(text);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !existsSync(join(folder, name)))).toEqual([]);
    const named = new Set(names.map((name) => name.split('/')[0]));
    const unnamed = readdirSync(folder).filter((entry) => entry !== 'README.md' && !named.has(entry) && !text.includes(`\`${entry}`));
    expect(unnamed).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pngOf } from '../test/helpers/git-repo.js';

/**
 * The repositories of bench/git-import.ts and bench/git-library.ts, made with the `git` command
 * in GitBook's format (docs/git-sync.md): a readme and `pages` pages in groups, with front
 * matter, hints, tabs, code, images and links, and `images` PNGs under .gitbook/assets.
 */

export const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Writer',
  GIT_AUTHOR_EMAIL: 'writer@example.test',
  GIT_COMMITTER_NAME: 'Writer',
  GIT_COMMITTER_EMAIL: 'writer@example.test',
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env: GIT_ENV,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  }).trim();
}

/** A deterministic generator (mulberry32), so that a seed makes the same repository. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PNG's signature and IHDR (so dimensions are read) followed by `size` random bytes. */
function png(next: () => number, width: number, height: number, size: number): Buffer {
  const noise = Buffer.alloc(size);
  for (let i = 0; i < size; i++) noise[i] = Math.floor(next() * 256);
  return Buffer.concat([pngOf(width, height), noise]);
}

export interface Layout {
  /** Page files in SUMMARY order. */
  pages: string[];
  summary: string;
}

/** Groups of 5 sections (a folder: README + 9 pages, the 9th under the 8th) of 10 pages. */
function layout(pages: number): Layout {
  const files: string[] = ['README.md'];
  const lines = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  for (let g = 0; files.length - 1 < pages; g++) {
    lines.push(`## Group ${g + 1} <a href="#group-${g + 1}" id="group-${g + 1}"></a>`, '');
    for (let s = 0; s < 5 && files.length - 1 < pages; s++) {
      const folder = `group-${g + 1}/section-${s + 1}`;
      files.push(`${folder}/README.md`);
      lines.push(`* [Section ${g + 1}.${s + 1}](${folder}/README.md)`);
      for (let p = 1; p <= 9 && files.length - 1 < pages; p++) {
        files.push(`${folder}/page-${p}.md`);
        lines.push(`${p === 9 ? '    ' : '  '}* [Page ${p}](${folder}/page-${p}.md)`);
      }
    }
    lines.push('');
  }
  return { pages: files, summary: `${lines.join('\n')}\n` };
}

function relative(from: string, to: string): string {
  const up = from.split('/').length - 1;
  return `${'../'.repeat(up)}${to}`;
}

/** A page in GitBook's format: front matter, hints, tabs, code, two images, links. */
function pageText(
  file: string,
  n: number,
  images: [string, string],
  next: Layout,
  salt = '',
): string {
  const title = file === 'README.md' ? 'Welcome' : `Page ${n}: ${file.replace(/\.md$/, '')}`;
  const link = next.pages[(n + 7) % next.pages.length] ?? 'README.md';
  const para = (k: number) =>
    `Paragraph ${k} of page ${n}${salt}: **configure** the \`client\` with a [reference](${relative(file, link)}) ` +
    'and read the [API docs](https://example.com/api). Lorem ipsum dolor sit amet, consectetur ' +
    'adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n';
  return `---
description: What page ${n} explains, in one line.
${n % 3 === 0 ? 'icon: rocket\n' : ''}---

# ${title}

${para(1)}
{% hint style="${['info', 'warning', 'success', 'danger'][n % 4]}" %}
A hint on page ${n}: remember to set \`LIVERY_TOKEN\` first.
{% endhint %}

## Install

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install @example/client@${n}
\`\`\`
{% endtab %}

{% tab title="JavaScript" %}
\`\`\`javascript
import { Client } from '@example/client';

const client = new Client({ token: process.env.LIVERY_TOKEN });
await client.pages.get(${n});
\`\`\`
{% endtab %}
{% endtabs %}

<figure><img src="${relative(file, images[0])}" alt="Screenshot ${n}"><figcaption><p>The screen of step ${n}</p></figcaption></figure>

## Usage

${para(2)}
1. Open the settings.
2. Choose **Tokens**, then [the next page](${relative(file, link)}).
3. Copy the token.

![Diagram ${n}](${relative(file, images[1])})

| Option | Default | Meaning |
| ------ | ------- | ------- |
| \`retries\` | 3 | How often a request is tried |
| \`timeout\` | 30 s | How long a request may take |

${para(3)}`;
}

/** A repository of `pages` pages and `images` images; its directory. */
export function makeRepository(
  root: string,
  name: string,
  pages: number,
  images: number,
  seed: number,
) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  const next = random(seed);
  const tree = layout(pages);
  const assets: string[] = [];
  for (let i = 0; i < images; i++) {
    const path = `.gitbook/assets/image-${i + 1}${i % 10 === 0 ? ' (1)' : ''}.png`;
    assets.push(path);
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(
      full,
      png(next, 320 + (i % 800), 200 + (i % 600), 1024 + Math.floor(next() * 15 * 1024)),
    );
  }
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  write('.gitbook.yaml', 'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n');
  write('SUMMARY.md', tree.summary);
  tree.pages.forEach((file, n) => {
    const pair: [string, string] = [
      assets[(2 * n) % assets.length] ?? '',
      assets[(2 * n + 1) % assets.length] ?? '',
    ];
    // The seed in every page: no two repositories share a page blob (the server keeps parsed
    // pages by blob, so a shared one would make a later round's import cheaper).
    write(file, pageText(file, n, pair, tree, ` (repository ${seed})`));
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Docs');
  // Packed, as a hosted repository is: loose objects would make every fetch pack them again.
  git(dir, 'repack', '-adq');
  return { dir, tree, assets };
}

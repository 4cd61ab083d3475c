import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `node --import tsx bench/html-render.ts [checkout]`: the CPU one published page's HTML costs,
 * in this process, without HTTP or a database: the chrome (page-html.ts, around the page of
 * `npm run bench:published`: a 220-entry sidebar, header links with a dropdown, footer groups,
 * an announcement, a logo, two variants, page actions) and a body (documents/to-html.ts, a
 * documentation page of headings, paragraphs with links and marks, lists, a table, a hint, a
 * code block), each rendered N times after a warm-up. `checkout` is another tree of Livery (the
 * one before a change: `git archive <commit> | tar -x -C /tmp/before`), so that before and after
 * are measured by the same script. docs/published-site.md, "How HTML is written", has figures.
 */
const root = resolve(process.argv[2] ?? '.');
const load = (path: string) => import(pathToFileURL(`${root}/${path}`).href);
const templated = existsSync(`${root}/src/html/safe-html.ts`);

const { renderPage } = await load('src/modules/published/rendering/page-html.ts');
const { documentToHtml, markdownToDocument } = await load('src/modules/documents/index.ts');
// src/settings/ since issue 26; the customization module before it.
const { DEFAULT_SETTINGS } = await load(
  existsSync(`${root}/src/settings/defaults.ts`)
    ? 'src/settings/defaults.ts'
    : 'src/modules/customization/defaults.ts',
);
const { stringsFor } = await load('src/modules/published/rendering/strings.ts');
const markup: (s: string) => unknown = templated
  ? ((await load('src/html/safe-html.ts')).highlightedCode as (s: string) => unknown)
  : (s) => s;

const settings = structuredClone(DEFAULT_SETTINGS);
const url = (u: string) => ({ kind: 'url', url: u });
Object.assign(settings.header, {
  logo: { light: 'https://e.test/logo.png', dark: 'https://e.test/logo-dark.png' },
  links: [
    { title: 'Guides', to: url('https://e.test/guides'), links: [] },
    { title: 'API', to: url('https://e.test/api'), links: [] },
    {
      title: 'More',
      to: null,
      links: [
        { title: 'Blog', to: url('https://e.test/blog') },
        { title: 'Status', to: url('https://e.test/status') },
      ],
    },
  ],
});
settings.footer.groups = [
  { title: 'Product', links: [{ title: 'Pricing', to: url('https://e.test/pricing') }] },
  { title: 'Company', links: [{ title: 'About', to: url('https://e.test/about') }] },
];
settings.footer.copyright = '© Acme';
settings.announcement = { enabled: true, message: 'Version 2 is out', style: 'info' };

const sidebar = Array.from({ length: 20 }, (_, s) => ({
  id: `s${s}`,
  kind: 'document',
  title: `Section ${s + 1}`,
  href: `/s/bench/section-${s + 1}`,
  active: false,
  open: s === 6,
  children: Array.from({ length: 10 }, (_, p) => ({
    id: `s${s}p${p}`,
    kind: 'document',
    title: `Topic ${p + 1}`,
    href: `/s/bench/section-${s + 1}/topic-${p + 1}`,
    active: s === 6 && p === 4,
    open: false,
    children: [],
  })),
}));

const MARKDOWN = `# Getting started

Livery serves **published documentation** from a [space](https://e.test/spaces), with
\`code\`, *emphasis* and [links to other pages](../install).

## Install

1. Download the release.
2. Run \`npm start\`, then open [the studio](http://localhost:3000/studio).
3. Sign in.

- One
- Two, with **bold** and a [link](https://e.test/x)
- Three

{% hint style="warning" %}
Back up your database before upgrading.
{% endhint %}

| Setting | Default | Meaning |
|:--|:-:|--:|
| \`PORT\` | 3000 | Where it listens |
| \`DATABASE_URL\` | sqlite | Where it stores |

\`\`\`
npm install
npm start
\`\`\`

### Next

Read [the configuration](https://e.test/config) and ${'the guides. '.repeat(20)}
`.repeat(2);

const doc = markdownToDocument(MARKDOWN);
const body = documentToHtml(doc);
const view = {
  settings,
  strings: stringsFor('en'),
  siteTitle: 'Bench docs',
  homeHref: '/s/bench/',
  page: { id: 'p', title: 'Topic 5', description: 'A topic', bodyHtml: markup(body) },
  sidebar,
  breadcrumbs: [{ title: 'Section 7', href: '/s/bench/section-7' }],
  neighbours: {
    previous: { title: 'Topic 4', href: '/s/bench/section-7/topic-4' },
    next: { title: 'Topic 6', href: '/s/bench/section-7/topic-6' },
  },
  variants: [
    { title: 'English', href: '/s/bench/', active: true },
    { title: 'Deutsch', href: '/s/bench/de/', active: false },
  ],
  link: (ref: { url?: string }) => ref.url,
  themeCssHref: '/s/bench/@livery/theme/v.css',
  assetsHref: '/s/@livery/',
  noindex: false,
  feedbackHref: '/s/bench/@livery/feedback',
  siteSpaceId: 'v',
  actions: { markdownHref: '/s/bench/section-7/topic-5.md' },
};

/** Microseconds of CPU (user + system) per call, over `n` calls after `n / 10` unmeasured. */
function cpuPerCall(n: number, work: () => unknown): number {
  for (let i = 0; i < n / 10; i++) work();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const N = Number(process.env.N ?? 4000);
const rounds = [1, 2, 3].map(() => ({
  chrome: cpuPerCall(N, () => renderPage(view)),
  body: cpuPerCall(N, () => documentToHtml(doc)),
}));
const best = (key: 'chrome' | 'body') => Math.min(...rounds.map((r) => r[key]));
process.stdout.write(
  `${root}${templated ? ' (html templates)' : ''}: chrome ${best('chrome').toFixed(1)} µs, ` +
    `body ${best('body').toFixed(1)} µs per render (best of 3 rounds of ${N}); ` +
    `${renderPage(view).length} + ${body.length} characters\n`,
);

import { createRequire } from 'node:module';
import { html, type SafeHtml } from '../src/html/safe-html.js';
import { attrUrl } from '../src/html/safe-url.js';

/**
 * `PREACT_SSR=<dir> node --import tsx bench/html-candidates.ts`: the escape-by-default
 * candidates of issue 26 on the same markup, the heaviest of a published page: its 220-entry
 * sidebar (a link, a label and a nested list each) and 200 paragraphs of text with marks and
 * links. Each writes the same HTML:
 *   template  the `html` tagged template (src/html/safe-html.ts), as Livery writes it;
 *   preact    Preact's server-side rendering (`preact-render-to-string`, which Livery does not
 *             depend on: `npm install --prefix <dir> preact@10 preact-render-to-string@6`).
 * docs/published-site.md, "How HTML is written", has the figures and the choice.
 */
const entries = Array.from({ length: 20 }, (_, s) => ({
  title: `Section ${s + 1}`,
  href: `/s/bench/section-${s + 1}`,
  children: Array.from({ length: 10 }, (_, p) => ({
    title: `Topic ${p + 1} & more`,
    href: `/s/bench/section-${s + 1}/topic-${p + 1}`,
    children: [] as never[],
  })),
}));
type Entry = { title: string; href: string; children: Entry[] };
const paragraphs = Array.from({ length: 200 }, (_, i) => ({
  text: `Paragraph ${i} says <what> it means, `,
  bold: 'with emphasis',
  link: { href: `https://e.test/${i}`, text: 'and a link' },
}));

function templateNav(list: Entry[]): SafeHtml | '' {
  if (list.length === 0) return '';
  return html`<ul>${list.map((e) => html`<li><a href="${attrUrl(e.href)}">${e.title}</a>${templateNav(e.children)}</li>`)}</ul>`;
}
const templatePage = () =>
  html`<nav>${templateNav(entries)}</nav><article>${paragraphs.map(
    (p) =>
      html`<p>${p.text}<strong>${p.bold}</strong> <a href="${attrUrl(p.link.href)}">${p.link.text}</a></p>`,
  )}</article>`.html;

function cpuPerCall(n: number, work: () => unknown): number {
  for (let i = 0; i < n / 10; i++) work();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const N = Number(process.env.N ?? 2000);
const results: Record<string, number> = { template: cpuPerCall(N, templatePage) };
const dir = process.env.PREACT_SSR;
if (dir !== undefined) {
  const require = createRequire(`${dir}/node_modules/`);
  // Untyped: Preact's types would bring the DOM's into the whole project's type check.
  const { h } = require('preact') as { h: (...args: unknown[]) => never };
  const { renderToString } = require('preact-render-to-string') as {
    renderToString: (vnode: unknown) => string;
  };
  const nav = (list: Entry[]): never =>
    list.length === 0
      ? (null as never)
      : h(
          'ul',
          null,
          list.map((e) =>
            h('li', null, h('a', { href: attrUrl(e.href)?.url }, e.title), nav(e.children)),
          ),
        );
  const page = () =>
    h(
      'div',
      null,
      h('nav', null, nav(entries)),
      h(
        'article',
        null,
        paragraphs.map((p) =>
          h(
            'p',
            null,
            p.text,
            h('strong', null, p.bold),
            ' ',
            h('a', { href: p.link.href }, p.link.text),
          ),
        ),
      ),
    );
  results.preact = cpuPerCall(N, () => renderToString(page()));
}
process.stdout.write(
  `${Object.entries(results)
    .map(([name, us]) => `${name} ${us.toFixed(1)} µs`)
    .join(', ')} per render of a 220-entry sidebar and 200 paragraphs (${N} renders)\n`,
);

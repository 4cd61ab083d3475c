import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  type Block,
  documentToHtml,
  type JsonDocument,
} from '../../src/modules/documents/index.js';
import { SettingsSchema } from '../../src/settings/settings-schema.js';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';
import { findActive, findCssBreaks } from '../helpers/inert-html.js';
import { newSpace, publishChanges } from '../helpers/insights.js';

/**
 * Every setting and every document construct, filled with hostile strings, renders inert
 * (docs/published-site.md, "How HTML is written"): through the real HTTP layer (the published
 * page, the site's 404, the sign-in page of visitor authentication, the preview, the linked
 * theme), each answer parsed by Chromium's HTML parser, in which
 * nothing may be active that the templates did not write (helpers/inert-html.ts). The settings
 * are filled by walking the settings schema: each string leaf gets each hostile string, through
 * the API; what its validation refuses is asserted refused (400), what it accepts is rendered.
 */

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'javascript&#58;alert(1)',
  '&#106;avascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://e.test/"><script>alert(1)</script>',
  "https://e.test/' onmouseover='alert(1)",
  '</style><script>alert(1)</script>',
  'red;} body{background:url(javascript:alert(1))}',
  '#fff;}</style><script>alert(1)</script>',
];

type Schema = Record<string, unknown>;
type Path = (string | number)[];

/**
 * A valid settings document with every optional field present and every list of one item, and
 * the paths of its string leaves (strings that are not an enumeration). `alternative` picks,
 * in each union, the first (0) or the last (1) alternative that is an object, so that two
 * documents cover favicon emoji and icon, font names and definitions, link kinds.
 */
function sample(schema: Schema, alternative: 0 | 1, path: Path, leaves: Path[]): unknown {
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union !== undefined) {
    const objects = union.filter((s) => s.type === 'object');
    const pool = objects.length > 0 ? objects : union.filter((s) => s.type !== 'null');
    const chosen = alternative === 0 ? pool[0] : pool.at(-1);
    return sample(chosen ?? (union[0] as Schema), alternative, path, leaves);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      // An object of at most n fields (favicon: emoji or icon) takes the first or the last n.
      const entries = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const most = (schema.maxProperties as number | undefined) ?? entries.length;
      const kept = alternative === 0 ? entries.slice(0, most) : entries.slice(-most);
      return Object.fromEntries(
        kept.map(([key, value]) => [key, sample(value, alternative, [...path, key], leaves)]),
      );
    }
    case 'array':
      return [sample(schema.items as Schema, alternative, [...path, 0], leaves)];
    case 'string':
      leaves.push(path);
      return validString(schema);
    case 'integer':
    case 'number':
      return (schema.minimum as number | undefined) ?? 400;
    case 'boolean':
      return true;
    default:
      return {};
  }
}

/** A string the schema accepts. */
function validString(schema: Schema): string {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const candidates = [
    ...(schema.format === 'emoji' ? ['🎉'] : []),
    'https://e.test/a.png',
    '#336699',
    'mailto:a@e.test',
    'acme',
    'https://e.test/',
  ];
  return candidates.find((c) => pattern === undefined || pattern.test(c)) ?? 'acme';
}

function setAt(target: unknown, path: Path, value: unknown): void {
  let at = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
}

/** Every construct of a page's Markdown, each slot holding `h`. */
const markdownOf = (h: string) => {
  const q = h.replaceAll('"', '&quot;');
  return `# ${h}

${h} **${h}** *${h}* ~~${h}~~ \`${h}\`

[${h}](${h}) [${h}](<${h}>) ![${h}](${h}) ![${h}](<${h}> "${h}") <${h}>

- [ ] ${h}
- [x] ${h}

1. ${h}

> ${h}

{% hint style="${q}" %}
${h}
{% endhint %}

\`\`\`${h.replaceAll('`', '')}
${h}
\`\`\`

{% code title="${q}" %}
\`\`\`js
${h}
\`\`\`
{% endcode %}

| ${h} | b |
|:--|--:|
| ${h} | [${h}](${h}) |

{% tabs %}
{% tab title="${q}" %}
${h}
{% endtab %}
{% endtabs %}

<details><summary>${h}</summary>

${h}

</details>

{% embed url="${q}" %}

{% content-ref url="${q}" %}
[${h}](${h})
{% endcontent-ref %}

<figure><img src="${q}" alt="${q}"><figcaption>${h}</figcaption></figure>

---
`;
};

let t: TestContext;
let browser: Browser;
let page: Page;
let base: string;
let address: string;
/** A visitor-authentication site of the same space: its sign-in page (401) wears the settings. */
let signInBase: string;
before(async () => {
  // Thousands of PUTs: one for each string leaf and hostile string.
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  const spaceId = await newSpace(t, 'Hostile');
  await publishChanges(
    t,
    spaceId,
    HOSTILE.map((h, i) => ({
      operation: 'insert_page',
      title: `${h} ${i}`,
      slug: `page-${i}`,
      emoji: '🎉',
      description: h,
      document: { markdown: markdownOf(h) },
    })),
  );
  const site = async (basename: string, visibility: string) => {
    const created = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title: 'Docs', spaces: [spaceId] },
    });
    const at = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id as string}`;
    const patch = { basename, visibility };
    expectStatus(await t.request({ method: 'PATCH', url: at, payload: patch }), 200);
    expectStatus(await t.request({ method: 'POST', url: `${at}/publish` }), 200);
    return at;
  };
  base = await site('hostile', 'public');
  address = '/s/hostile';
  signInBase = await site('hostile-auth', 'visitor-auth');
});
after(async () => {
  await browser?.close();
  await t?.close();
});

async function assertInert(html: string, what: string): Promise<void> {
  assert.deepEqual(await findActive(page, html), [], what);
}

describe('hostile strings stay text', () => {
  test('in every construct of a page and its title, on the page and in the preview', async () => {
    for (const [i, h] of HOSTILE.entries()) {
      const response = await t.app.inject({ method: 'GET', url: `${address}/page-${i}` });
      assert.equal(response.statusCode, 200, h);
      await assertInert(response.body, `page of ${JSON.stringify(h)}`);
      const preview = await t.request({
        method: 'POST',
        url: `${base}/preview`,
        payload: { pagePath: `page-${i}` },
      });
      assert.equal(preview.statusCode, 200, h);
      await assertInert(preview.body, `preview of ${JSON.stringify(h)}`);
    }
  });

  test('in every string of the settings, through the API (refused, or rendered inert)', async () => {
    const pageUrl = `${address}/page-0`;
    let rendered = 0;
    for (const alternative of [0, 1] as const) {
      const leaves: Path[] = [];
      const valid = sample(SettingsSchema as unknown as Schema, alternative, [], leaves) as Record<
        string,
        unknown
      >;
      expectStatus(
        await t.request({ method: 'PUT', url: `${base}/customization`, payload: valid }),
        200,
      );
      for (const h of HOSTILE) {
        // Each leaf alone first: the validation's answer for this string there.
        const accepted: Path[] = [];
        for (const leaf of leaves) {
          const one = structuredClone(valid);
          setAt(one, leaf, h);
          const put = await t.request({
            method: 'PUT',
            url: `${base}/customization`,
            payload: one,
          });
          assert.ok(
            put.statusCode === 200 || put.statusCode === 400,
            `${leaf.join('.')}: ${h}: ${put.statusCode} ${put.body}`,
          );
          if (put.statusCode === 200) accepted.push(leaf);
        }
        // Then every leaf that accepts it at once, rendered on the site and in a preview.
        const all = structuredClone(valid);
        for (const leaf of accepted) setAt(all, leaf, h);
        expectStatus(
          await t.request({ method: 'PUT', url: `${base}/customization`, payload: all }),
          200,
        );
        const what = `settings of ${JSON.stringify(h)} (${alternative}) in ${accepted.map((p) => p.join('.')).join(', ')}`;
        for (const url of [pageUrl, `${address}/no-such-page`]) {
          const response = await t.app.inject({ method: 'GET', url });
          assert.ok([200, 404].includes(response.statusCode), what);
          await assertInert(response.body, `${url}: ${what}`);
          // The theme the page links: the same rules as a theme inline.
          const theme = /<link rel="stylesheet" href="([^"]*@livery\/theme\/[^"]*)">/.exec(
            response.body,
          )?.[1];
          assert.ok(theme !== undefined, what);
          const css = await t.app.inject({ method: 'GET', url: theme });
          assert.equal(css.statusCode, 200, what);
          assert.deepEqual(findCssBreaks(css.body), [], `theme: ${what}`);
        }
        expectStatus(
          await t.request({ method: 'PUT', url: `${signInBase}/customization`, payload: all }),
          200,
        );
        const signIn = await t.app.inject({ method: 'GET', url: '/s/hostile-auth/page-0' });
        assert.equal(signIn.statusCode, 401, what);
        await assertInert(signIn.body, `sign-in page: ${what}`);
        const preview = await t.request({
          method: 'POST',
          url: `${base}/preview`,
          payload: { site: all, pagePath: 'page-0' },
        });
        assert.equal(preview.statusCode, 200, what);
        await assertInert(preview.body, `preview: ${what}`);
        rendered += accepted.length;
      }
    }
    // The walk reached the settings: titles, messages and texts take any string.
    assert.ok(rendered > 100, `only ${rendered} hostile settings rendered`);
  });
});

describe('every block and inline of the document model, from any source, stays text', () => {
  const text = (h: string) => ({
    object: 'text' as const,
    leaves: ['bold', 'italic', 'strikethrough', 'code', 'unknown'].map((type) => ({
      object: 'leaf' as const,
      text: h,
      marks: [{ object: 'mark' as const, type: type as 'bold' }],
    })),
  });
  const block = (type: string, data: Record<string, unknown>, nodes: unknown[] = []): Block =>
    ({ object: 'block', type, data, nodes }) as Block;
  const inlines = (h: string) => [
    text(h),
    { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: h } }, nodes: [text(h)] },
    {
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'anchor', anchor: h, page: h } },
      nodes: [text(h)],
    },
    {
      object: 'inline',
      type: 'inline-image',
      data: { ref: { kind: 'url', url: h }, alt: h, caption: h },
    },
    { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: h } },
  ];
  const documentOf = (h: string): JsonDocument => {
    const p = block('paragraph', {}, inlines(h));
    const tableRef = 'cell';
    return {
      object: 'document',
      data: {},
      nodes: [
        p,
        ...['heading-1', 'heading-2', 'heading-3'].map((type) => block(type, {}, inlines(h))),
        block('list-ordered', { start: h }, [block('list-item', {}, [p])]),
        block('list-unordered', {}, [block('list-item', {}, [p, p])]),
        block('list-tasks', {}, [block('list-item', { checked: true }, [p])]),
        block('blockquote', {}, [p]),
        block('hint', { style: h }, [p]),
        block('divider', {}),
        block('code', { syntax: h, title: h }, [block('code-line', {}, [text(h)])]),
        {
          ...block('table', {
            view: { columns: ['c'] },
            definition: { c: { title: h, textAlignment: h } },
            records: { r: { orderIndex: 'a', values: { c: tableRef } } },
          }),
          fragments: [{ object: 'fragment', fragment: tableRef, nodes: [p] }],
        } as Block,
        block('images', {}, [
          {
            ...block('image', { ref: { kind: 'url', url: h }, alt: h, caption: h }),
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [p] }],
          } as Block,
        ]),
        block('tabs', {}, [block('tabs-item', { title: h }, [p])]),
        {
          ...block('expandable', { defaultExpanded: true }),
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', nodes: [p] },
            { object: 'fragment', fragment: 'expandable-body', nodes: [p] },
          ],
        } as Block,
        block('content-ref', { ref: { kind: 'url', url: h } }),
        block('content-ref', { ref: { kind: 'page', page: h } }),
        block('embed', { url: h }),
        // The Liquid-tag blocks (documents/blocks/).
        block('stepper', {}, [block('stepper-step', {}, [p])]),
        block('columns', { fullWidth: h }, [
          block('column', { width: { unit: h, value: h }, verticalAlignment: h }, [p]),
          block('column', { width: h }, [p]),
        ]),
        block('code', { syntax: 'mermaid', title: h, overflow: h, lineNumbers: true }, [
          block('code-line', {}, [text(h)]),
        ]),
        block('math', { formula: h }),
        block('math', {
          formula: `\\href{${h}}{x}\\url{${h}}\\htmlClass{${h}}{y}\\color{${h}}{z}`,
        }),
        block('file', { ref: { kind: 'file', file: h } }),
        block('reusable-content', { ref: { kind: 'reusable-content', reusableContent: h } }),
        block('swagger', { ref: { kind: 'url', url: h }, path: h, method: h }),
        block('swagger', { ref: { kind: 'file', file: h }, path: h, method: 'get' }),
        block('openapi-operation', { ref: { kind: 'openapi', spec: h }, path: h, method: h }),
        block('openapi-schemas', { ref: { kind: 'openapi', spec: h }, schemas: [h], title: h }),
        block('if', { expression: h }, [p]),
        block('prompt', { description: h, icon: h, defaultExpanded: h }, [
          block('code', { syntax: h }, [block('code-line', {}, [text(h)])]),
        ]),
        block('updates', { format: h }, [
          block('update', { date: h, tags: [{ kind: 'tag', tag: h }] }, [p]),
        ]),
        block('integration', { integration: h, block: h, props: { [h]: h, n: { h } } }),
        block(h, { h }, [p]),
      ],
    } as unknown as JsonDocument;
  };

  test('rendered with and without the site addresses, parsed by a browser', async () => {
    for (const h of HOSTILE) {
      const inner = documentOf(h);
      const file = () => ({ url: h, name: h, contentType: h, size: 1 });
      for (const options of [
        {},
        { newTab: true, pageHref: () => h, pageTitle: () => h, file, reusableContent: () => inner },
      ]) {
        const body = documentToHtml(documentOf(h), options);
        await assertInert(`<!doctype html><html><body>${body}</body></html>`, h);
      }
    }
  });
});

/**
 * `GET /v1/spaces/{space}/revisions/{rev}/page/{page}/document` (getPageDocumentInRevisionById)
 * and `format=document` on the page reads (issue 15): GitBook-flavoured Markdown converted
 * faithfully, links to other pages of the revision as references to them, the answer valid under
 * GitBook 0.202's (and 0.130's) schema, through the official 0.202 client too; 404 in the
 * envelope for an unknown page, a group and a link.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  changeRequestPages,
  client0202,
  flatten,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  spacePages,
  spaceUrl,
} from '../helpers/content.js';
import { listenWithClient } from '../helpers/gitbook.js';
import { Conformance } from '../helpers/gitbook-conformance.js';

const GUIDE = `# Guide

Read **this** first, then [install](guide/install.md#setup) it.

{% hint style="warning" %}
Back up \`data/\`.
{% endhint %}

- [x] done
- [ ] todo

| Key | Value |
|---|:-:|
| a | *1* |

{% tabs %}
{% tab title="npm" %}
{% code title="sh" %}
\`\`\`bash
npm install
\`\`\`
{% endcode %}
{% endtab %}
{% endtabs %}

<details>
<summary>More</summary>

Hidden text.

</details>

{% content-ref url="guide/install.md" %}
[install.md](guide/install.md)
{% endcontent-ref %}

{% embed url="https://video.test/x" %}

![Logo](logo.png)

---
`;

let t: TestContext;
let c: Conformance;
let spaceId: string;
let revision: string;
let pages: PageBody[];

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  spaceId = (await newSpace(t, 'Docs')).id;
  const cr = await openChangeRequest(t, spaceId, 'Pages');
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', type: 'group', title: 'Group', slug: 'group' },
    {
      operation: 'insert_page',
      type: 'link',
      title: 'Site',
      target: { kind: 'url', url: 'https://e.test/' },
    },
  ]);
  const guide = (await changeRequestPages(t, spaceId, cr.id))[0];
  assert.ok(guide);
  await applyChanges(t, spaceId, cr.id, [
    {
      operation: 'insert_page',
      title: 'Install',
      slug: 'install',
      into: guide.id,
      document: { markdown: '## Setup\n\nBack to the [guide](../guide.md).\n' },
    },
  ]);
  revision = (await mergeChangeRequest(t, spaceId, cr.id)).revision;
  pages = flatten(await spacePages(t, spaceId));
});
after(async () => t.close());

const idOf = (title: string) => pages.find((p) => p.title === title)?.id ?? 'missing';
const documentUrl = (page: string) =>
  `${spaceUrl(spaceId)}/revisions/${revision}/page/${page}/document`;
type Node = { type?: string; data?: Record<string, unknown>; nodes?: Node[] };

describe('getPageDocumentInRevisionById', () => {
  test('a page of every construct: its document, valid under GitBook 0.202 and 0.130', async () => {
    const response = await c.call(
      'getPageDocumentInRevisionById',
      { method: 'GET', url: `${documentUrl(idOf('Guide'))}?evaluated=true&dereferenced=false` },
      { status: 200 },
    );
    c.assertConforms();
    const doc = JSON.parse(response.body) as { object: string; nodes: Node[] };
    assert.equal(doc.object, 'document');
    assert.deepEqual(
      doc.nodes.map((node) => node.type),
      [
        'paragraph',
        'hint',
        'list-tasks',
        'table',
        'tabs',
        'expandable',
        'content-ref',
        'embed',
        'images',
        'divider',
      ],
      'the title heading left out, every other block in order',
    );
    const link = doc.nodes[0]?.nodes?.find((node) => node.type === 'link');
    assert.deepEqual(link?.data?.ref, { kind: 'anchor', anchor: 'setup', page: idOf('Install') });
    assert.deepEqual(doc.nodes[6]?.data?.ref, { kind: 'page', page: idOf('Install') });
  });

  test("GitBook's renderer's query (evaluated=deterministic-only, dereferenced=reusable-contents) is accepted", async () => {
    const url = `${documentUrl(idOf('Guide'))}?evaluated=deterministic-only&dereferenced=reusable-contents`;
    const plain = expectStatus(
      await t.request({ method: 'GET', url: documentUrl(idOf('Guide')) }),
      200,
    );
    assert.deepEqual(expectStatus(await t.request({ method: 'GET', url }), 200), plain);
    const refused = `${documentUrl(idOf('Guide'))}?evaluated=sometimes`;
    expectStatus(await t.request({ method: 'GET', url: refused }), 400);
  });

  test('a relative link up from a child page is a reference to its parent', async () => {
    const doc = expectStatus(
      await t.request({ method: 'GET', url: documentUrl(idOf('Install')) }),
      200,
    ) as { nodes: Node[] };
    const link = doc.nodes[1]?.nodes?.find((node) => node.type === 'link');
    assert.deepEqual(link?.data?.ref, { kind: 'page', page: idOf('Guide') });
  });

  for (const [what, page] of [
    ['an unknown page', () => 'nopage'],
    ['a group', () => idOf('Group')],
    ['a link', () => idOf('Site')],
  ] as const) {
    test(`${what}: 404 in GitBook's envelope`, async () => {
      const response = await t.request({ method: 'GET', url: documentUrl(page()) });
      const body = expectStatus(response, 404) as { error: { code: number; message: string } };
      assert.equal(body.error.code, 404);
      assert.match(body.error.message, /page|group|link/);
    });
  }

  test('an unknown revision: 404', async () => {
    const url = `${spaceUrl(spaceId)}/revisions/norevision/page/${idOf('Guide')}/document`;
    expectStatus(await t.request({ method: 'GET', url }), 404);
  });

  test('the official 0.202 client reads it', async () => {
    const listening = await listenWithClient(t);
    const api = client0202(t, listening.endpoint);
    const { data } = await api.spaces.getPageDocumentInRevisionById(
      spaceId,
      revision,
      idOf('Guide'),
    );
    assert.equal(data.object, 'document');
    assert.equal(data.nodes[1]?.type, 'hint');
  });
});

describe('format=document on the page reads', () => {
  test('is the same document, with its references resolved', async () => {
    const fromRoute = expectStatus(
      await t.request({ method: 'GET', url: documentUrl(idOf('Guide')) }),
      200,
    );
    for (const url of [
      `${spaceUrl(spaceId)}/content/page/${idOf('Guide')}?format=document`,
      `${spaceUrl(spaceId)}/content/path/guide?format=document`,
      `${spaceUrl(spaceId)}/revisions/${revision}/page/${idOf('Guide')}?format=document`,
    ]) {
      const page = expectStatus(await t.request({ method: 'GET', url }), 200);
      assert.deepEqual(page.document, fromRoute, url);
    }
  });
});

/**
 * `npm run demo:renderer -- --api http://127.0.0.1:8080 --token gb_…`: makes, through Livery's
 * API, the sites docs/renderer.md uses to show GitBook's renderer on Livery: `acme` (English
 * default + German variant at `de`, customized, GitBook-flavoured Markdown), `acme-shared`
 * (share link) and `acme-closed` (visitor authentication). Prints their addresses and the
 * credentials to open the closed ones. Idempotent enough for a demo: run it on a fresh database.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { api: { type: 'string', default: 'http://127.0.0.1:8080' }, token: { type: 'string' } },
});
const api = values.api as string;
const token = values.token ?? process.env.LIVERY_TOKEN;
if (token === undefined) throw new Error('Give --token (an admin API token) or LIVERY_TOKEN');

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${api}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

const HANDBOOK = `Acme's handbook covers **installing**, *configuring* and ~~guessing~~ running Acme.
Read [the install guide](guides/install.md) first, or see [Acme's website](https://acme.test).

{% hint style="info" %}
Acme runs on any machine with \`node\` 20 or later.
{% endhint %}

| Plan | Seats | Support |
| --- | --- | --- |
| Free | 3 | Community |
| Team | 50 | **Email** |

- [x] Install
- [ ] Configure

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}\`;
}
\`\`\`
`;

const INSTALL = `## Requirements

1. Node.js 20
2. A database: SQLite (embedded) or PostgreSQL

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm install acme
\`\`\`
{% endtab %}
{% tab title="yarn" %}
\`\`\`sh
yarn add acme
\`\`\`
{% endtab %}
{% endtabs %}

> Acme keeps its data under \`./data\`.
`;

async function space(title: string, pages: { title: string; markdown: string; into?: string }[]) {
  const org = (await call('GET', '/orgs')).items as { id: string }[];
  const orgId = org[0]?.id as string;
  const created = await call('POST', `/orgs/${orgId}/spaces`, { title });
  const spaceId = created.id as string;
  const cr = await call('POST', `/spaces/${spaceId}/change-requests`, {});
  const changes = pages
    .filter((p) => p.into === undefined)
    .map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
  await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes });
  await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
  return { orgId, spaceId };
}

async function site(
  orgId: string,
  basename: string,
  spaces: string[],
  visibility: string,
): Promise<string> {
  const created = await call('POST', `/orgs/${orgId}/sites`, { title: 'Acme Docs', spaces });
  const base = `/orgs/${orgId}/sites/${created.id}`;
  await call('PATCH', base, { basename, visibility });
  await call('PUT', `${base}/customization`, {
    title: 'Acme Docs',
    styling: { primaryColor: { light: '#7c3aed', dark: '#a78bfa' }, corners: 'straight' },
    socialAccounts: [
      { platform: 'github', handle: 'acme', display: { footer: true, header: true } },
    ],
  });
  await call('POST', `${base}/publish`);
  return base;
}

const en = await space('Handbook', [
  { title: 'Welcome', markdown: HANDBOOK },
  { title: 'Guides', markdown: 'The guides.' },
]);
const { spaceId: guidesSpace } = en;
// Nested page: Guides › Install.
const pages = (await call('GET', `/spaces/${guidesSpace}/content/pages`)).pages as {
  id: string;
  title: string;
}[];
const guides = pages.find((p) => p.title === 'Guides')?.id;
const cr = await call('POST', `/spaces/${guidesSpace}/change-requests`, {});
await call('POST', `/spaces/${guidesSpace}/change-requests/${cr.id}/content`, {
  changes: [
    { operation: 'insert_page', title: 'Install', into: guides, document: { markdown: INSTALL } },
  ],
});
await call('POST', `/spaces/${guidesSpace}/change-requests/${cr.id}/merge`);
const de = await space('Handbuch', [
  { title: 'Willkommen', markdown: 'Das Handbuch von Acme: **installieren** und *einrichten*.' },
]);
await call('PATCH', `/spaces/${de.spaceId}`, { language: 'de' });

const acme = await site(en.orgId, 'acme', [en.spaceId, de.spaceId], 'public');
const variants = (await call('GET', `${acme}/site-spaces`)).items as {
  id: string;
  default: boolean;
}[];
const german = variants.find((v) => !v.default)?.id as string;
await call('PATCH', `${acme}/site-spaces/${german}`, { path: 'de' });
await call('PATCH', `${acme}/site-spaces/${german}/customization`, {
  styling: { primaryColor: { light: '#dc2626', dark: '#f87171' } },
  internationalization: { locale: 'de' },
});

const shared = await site(en.orgId, 'acme-shared', [en.spaceId], 'share-link');
const link = await call('POST', `${shared}/share-links`, { name: 'review' });
const key = new URL((link.urls as { published: string }).published).searchParams.get('share');

const closed = await site(en.orgId, 'acme-closed', [en.spaceId], 'visitor-auth');
const auth = await call('GET', `${closed}/publishing/auth`);

const published = (await call('GET', acme)).urls as { published: string };
console.log(`acme:        ${published.published}  (German: ${published.published}/de)`);
console.log(`acme-shared: share key ${key} (renderer path: acme-shared/${key}/)`);
console.log(`acme-closed: ${closed.split('/').pop()} visitor key ${auth.privateKey}`);
console.log(
  `demo-result ${JSON.stringify({ shareKey: key, closedSite: closed.split('/').pop(), visitorKey: auth.privateKey })}`,
);

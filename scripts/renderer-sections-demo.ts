/**
 * `npm run demo:renderer-sections -- --api http://127.0.0.1:8080 --token gb_…`: makes, through
 * Livery's API (GitBook 0.202's structure and redirect operations), the sectioned site
 * docs/renderer.md shows GitBook's renderer on: `acme-sections` with three sections (Guides, with
 * an English default and a French variant at `fr`; API; Changelog), API and Changelog in a
 * "Reference" section group, an external link (a draft), a redirect `/old-install` → Guides › Install, and
 * the site's customization. Run it on a fresh database; prints the published address.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { api: { type: 'string', default: 'http://127.0.0.1:8080' }, token: { type: 'string' } },
});
const api = values.api as string;
const token = values.token ?? process.env.LIVERY_TOKEN;
if (token === undefined) throw new Error('Give --token (an admin API token) or LIVERY_TOKEN');

type Json = Record<string, unknown>;
async function call(method: string, path: string, body?: unknown): Promise<Json> {
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
  return text === '' ? {} : (JSON.parse(text) as Json);
}

interface PageSpec {
  title: string;
  markdown: string;
  children?: PageSpec[];
}

/** A space with its pages (one level of children), merged through a change request. */
async function space(orgId: string, title: string, language: string, pages: PageSpec[]) {
  const spaceId = (await call('POST', `/orgs/${orgId}/spaces`, { title })).id as string;
  await call('PATCH', `/spaces/${spaceId}`, { language });
  const edit = async (changes: unknown[]) => {
    const cr = await call('POST', `/spaces/${spaceId}/change-requests`, {});
    await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes });
    await call('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
  };
  await edit(
    pages.map((p) => ({
      operation: 'insert_page',
      title: p.title,
      document: { markdown: p.markdown },
    })),
  );
  const tree = (await call('GET', `/spaces/${spaceId}/content/pages`)).pages as Json[];
  const nested = pages.flatMap((p) =>
    (p.children ?? []).map((c) => ({
      operation: 'insert_page',
      title: c.title,
      into: tree.find((t) => t.title === p.title)?.id,
      document: { markdown: c.markdown },
    })),
  );
  if (nested.length > 0) await edit(nested);
  return spaceId;
}

const orgId = ((await call('GET', '/orgs')).items as { id: string }[])[0]?.id as string;
const guidesEn = await space(orgId, 'Guides', 'en', [
  { title: 'Welcome', markdown: 'Acme in **five minutes**: install it, then read the API.' },
  {
    title: 'Guides',
    markdown: 'Step by step.',
    children: [{ title: 'Install', markdown: '## Requirements\n\n1. Node.js 20\n2. A database' }],
  },
]);
const guidesFr = await space(orgId, 'Guides (français)', 'fr', [
  { title: 'Bienvenue', markdown: 'Acme en **cinq minutes** : installez-le, puis lisez l’API.' },
]);
const apiSpace = await space(orgId, 'API', 'en', [
  { title: 'Overview', markdown: 'The REST API: `GET /v1/things`.' },
  { title: 'Authentication', markdown: 'Send `Authorization: Bearer <token>`.' },
]);
const changelog = await space(orgId, 'Changelog', 'en', [
  { title: 'Releases', markdown: '## 2.0\n\nSections.\n\n## 1.0\n\nFirst release.' },
]);

const created = await call('POST', `/orgs/${orgId}/sites`, {
  title: 'Acme Docs',
  spaces: [guidesEn],
});
const base = `/orgs/${orgId}/sites/${created.id}`;
await call('PATCH', base, { basename: 'acme-sections', visibility: 'public' });
// The first section added gathers the site's variants into a default section ("Guides").
const apiSection = await call('POST', `${base}/sections`, {
  spaceId: apiSpace,
  title: 'API',
  icon: 'code',
});
const sections = (await call('GET', `${base}/sections`)).items as Json[];
const guides = sections.find((s) => s.default === true) as Json;
await call('PATCH', `${base}/sections/${guides.id}`, { title: 'Guides', icon: 'book' });
// The default variant's own path redirects to the section's root: keep it apart from the page
// slugs (here `guides`), or `guides/install` would name the variant, not the page.
const en = (guides.siteSpaces as Json[])[0] as Json;
await call('PATCH', `${base}/site-spaces/${en.id}`, { path: 'en' });
const fr = await call('POST', `${base}/site-spaces`, { spaceId: guidesFr, sectionId: guides.id });
await call('PATCH', `${base}/site-spaces/${fr.id}`, { path: 'fr' });
const log = await call('POST', `${base}/sections`, {
  spaceId: changelog,
  title: 'Changelog',
  icon: 'clock',
});
await call('POST', `${base}/section-groups`, {
  title: 'Reference',
  sections: [apiSection.id, log.id],
});
// A draft: the renderer's snapshot of 2026-08 predates external links and fails on every page of
// a site whose published structure has one (docs/renderer.md#sections). Publish it with
// `updateSiteExternalLinkById {draft: false}` to try a newer renderer.
await call('POST', `${base}/external-links`, {
  title: 'Status',
  url: 'https://status.acme.test',
  draft: true,
});
await call('POST', `${base}/redirects`, {
  source: '/old-install',
  destination: { kind: 'path', spaceId: guidesEn, path: 'guides/install' },
});
await call('PUT', `${base}/customization`, {
  title: 'Acme Docs',
  styling: { primaryColor: { light: '#0f766e', dark: '#5eead4' }, corners: 'rounded' },
  socialAccounts: [{ platform: 'github', handle: 'acme', display: { footer: true, header: true } }],
});
await call('PATCH', `${base}/site-spaces/${fr.id}/customization`, {
  internationalization: { locale: 'fr' },
});
await call('POST', `${base}/publish`);
const published = ((await call('GET', base)).urls as { published: string }).published;
console.log(`acme-sections: ${published} (French: ${published}/fr, API: ${published}/api)`);
console.log(`demo-result ${JSON.stringify({ site: created.id, published })}`);

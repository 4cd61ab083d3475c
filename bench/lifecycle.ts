import type autocannon from 'autocannon';
import { apiCall, compareOnBackends, seed, TOKEN } from './lib.js';

/**
 * `npm run bench:lifecycle`: the site-lifecycle operations (issue 4) against the customization
 * GET of the same site, in the same run and the same rounds (ratios, not absolute times):
 *   baseline      GET …/site-spaces/{id}/customization (the hot read `npm run bench` measures);
 *   getSite       GET …/sites/{id} (the site with its site-space count);
 *   siteSpaces    GET …/site-spaces?limit=20 (18 variants, each with its space);
 *   auth          GET …/publishing/auth;
 *   shareLinks    GET …/share-links (10 links);
 *   publish       POST …/publish and …/unpublish alternating: every request a durable write
 *                 and a history row;
 *   visibility    PATCH …/sites/{id} alternating public/unlisted: the same, through the PATCH.
 * On SQLite and, when reachable, PostgreSQL (as `npm run bench`).
 */

const KINDS = [
  'baseline',
  'getSite',
  'siteSpaces',
  'auth',
  'shareLinks',
  'publish',
  'visibility',
] as const;
type Kind = (typeof KINDS)[number];
let sent = 0;

async function main(): Promise<void> {
  await compareOnBackends('Site-lifecycle benchmark', 'benchlc', async (base) => {
    const { getUrl } = await seed(base, 16);
    const siteUrl = getUrl.slice(0, getUrl.indexOf('/site-spaces/'));
    for (let i = 0; i < 10; i++) {
      await apiCall(base, 'POST', `${new URL(siteUrl).pathname}/share-links`, {
        name: `link ${i}`,
      });
    }
    return Object.fromEntries(KINDS.map((kind) => [kind, optionsOf(kind, getUrl, siteUrl)]));
  });
}

function optionsOf(kind: Kind, getUrl: string, siteUrl: string): autocannon.Options {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const path = new URL(siteUrl).pathname;
  switch (kind) {
    case 'baseline':
      return { url: getUrl, headers };
    case 'getSite':
      return { url: siteUrl, headers };
    case 'siteSpaces':
      return { url: `${siteUrl}/site-spaces?limit=20`, headers };
    case 'auth':
      return { url: `${siteUrl}/publishing/auth`, headers };
    case 'shareLinks':
      return { url: `${siteUrl}/share-links`, headers };
    case 'publish':
      return {
        url: siteUrl,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => ({
              ...request,
              path: `${path}/${++sent % 2 === 0 ? 'publish' : 'unpublish'}`,
            }),
          },
        ],
      };
    case 'visibility':
      return {
        url: siteUrl,
        requests: [
          {
            method: 'PATCH',
            path,
            headers: json,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ visibility: ++sent % 2 === 0 ? 'public' : 'unlisted' }),
            }),
          },
        ],
      };
  }
}

await main();

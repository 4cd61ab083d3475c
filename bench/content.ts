import type autocannon from 'autocannon';
import { type Fixture, seedContent } from './content-fixture.js';
import { compareOnBackends, seed, TOKEN } from './lib.js';

/**
 * `npm run bench:content`: content operations (issue 6) against the customization GET of the
 * same instance, in the same run and rounds (ratios, not absolute times). The space holds 220
 * pages: 20 sections of 10 pages each, plus a page per section heading, every body ~1 KB.
 *   baseline    GET …/site-spaces/{id}/customization (the hot read of `npm run bench`);
 *   space       GET /v1/spaces/{id} (with its change-request counters);
 *   tree        GET …/content/pages (the whole 220-page tree);
 *   byPath      GET …/content/path/section-7%2Ftopic-5?format=markdown;
 *   byId        GET …/content/page/{id}?format=document;
 *   insights    GET …/insights/content (220 pages with views and ratings);
 *   rate        PUT …/pages/{id}/feedbacks/{visitor} over 64 visitors (mostly replacements);
 *   view        POST …/insights/track_view;
 *   edit        POST …/change-requests/{id}/content renaming one page: every request a new
 *               immutable revision of the 220-page tree (compare-and-swap on the change request),
 *               which stores the renamed page's node and its section's (docs/content.md, "Storage").
 */

const KINDS = [
  'baseline',
  'space',
  'tree',
  'byPath',
  'byId',
  'insights',
  'rate',
  'view',
  'edit',
] as const;
type Kind = (typeof KINDS)[number];
let sent = 0;

async function main(): Promise<void> {
  await compareOnBackends('Content benchmark', 'benchct', async (base) => {
    const { getUrl } = await seed(base, 0);
    const fixture = await seedContent(base, getUrl);
    return Object.fromEntries(KINDS.map((kind) => [kind, optionsOf(kind, getUrl, fixture)]));
  });
}

function optionsOf(kind: Kind, getUrl: string, f: Fixture): autocannon.Options {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const origin = new URL(getUrl).origin;
  const spaceUrl = `${origin}/v1/spaces/${f.space}`;
  const write = (method: 'PUT' | 'POST', path: string, body: () => unknown) => ({
    url: spaceUrl,
    requests: [
      {
        method,
        headers: json,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          path,
          body: JSON.stringify(body()),
        }),
      },
    ],
  });
  const spacePath = `/v1/spaces/${f.space}`;
  switch (kind) {
    case 'baseline':
      return { url: getUrl, headers };
    case 'space':
      return { url: spaceUrl, headers };
    case 'tree':
      return { url: `${spaceUrl}/content/pages`, headers };
    case 'byPath':
      return { url: `${spaceUrl}/content/path/section-7%2Ftopic-5?format=markdown`, headers };
    case 'byId':
      return { url: `${spaceUrl}/content/page/${f.page}?format=document`, headers };
    case 'insights':
      return { url: `${spaceUrl}/insights/content`, headers };
    case 'rate':
      return {
        url: spaceUrl,
        requests: [
          {
            method: 'PUT',
            headers: json,
            setupRequest: (request) => ({
              ...request,
              path: `${spacePath}/pages/${f.page}/feedbacks/visitor-${++sent % 64}`,
              body: JSON.stringify({ rating: ['good', 'ok', 'bad'][sent % 3] }),
            }),
          },
        ],
      };
    case 'view':
      return write('POST', `${spacePath}/insights/track_view`, () => ({
        pageId: f.page,
        visitorId: `visitor-${++sent % 64}`,
      }));
    case 'edit':
      return write('POST', `${spacePath}/change-requests/${f.changeRequest}/content`, () => ({
        changes: [{ operation: 'update_page', page: f.page, title: `Topic 5 (${++sent})` }],
      }));
  }
}

await main();

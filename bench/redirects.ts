import type autocannon from 'autocannon';
import { seedContent } from './content-fixture.js';
import { apiCall, compareOnBackends, seed } from './lib.js';
import { addRedirects } from './sectioned-site.js';

/**
 * `npm run bench:redirects` (issue 29, "Performance"): what 5,000 site redirects cost a page view.
 * Two published sites show the same 220-page space of `npm run bench:content`; one has no
 * redirect rule, the other 5,000 (4,000 exact sources, 1,000 prefix sources `/legacy-N/*`),
 * all in the same run and rounds (ratios, not absolute times):
 *   page        GET /s/plain/section-7/topic-5: a page of the site without rules;
 *   page5k      the same page of the site with 5,000 rules (a page wins: rules are not read);
 *   missing     GET /s/plain/no-such-page: the styled 404 of the site without rules;
 *   missing5k   the same address on the site with 5,000 rules (looked up, none matches);
 *   redirect5k  GET /s/moved/legacy-777/a/b: answered 307 by a prefix rule among 5,000.
 */

const RULES = 5_000;

async function main(): Promise<void> {
  await compareOnBackends('Site redirects benchmark', 'benchrd', async (base) => {
    const { getUrl } = await seed(base, 0);
    const org = new URL(getUrl).pathname.split('/')[3] ?? '';
    const content = await seedContent(base, getUrl);
    for (const basename of ['plain', 'moved']) {
      const site = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
        title: basename,
        spaces: [content.space],
      });
      const siteBase = `/v1/orgs/${org}/sites/${String(site.id)}`;
      await apiCall(base, 'PATCH', siteBase, { basename });
      await apiCall(base, 'POST', `${siteBase}/publish`);
      if (basename === 'moved') await addRedirects(base, siteBase, RULES);
    }
    const at = (path: string): autocannon.Options => ({ url: `${base}/s/${path}` });
    const redirected = await fetch(`${base}/s/moved/legacy-777/a/b`, { redirect: 'manual' });
    if (redirected.status !== 307) throw new Error(`redirect5k answered ${redirected.status}`);
    return {
      page: at('plain/section-7/topic-5'),
      page5k: at('moved/section-7/topic-5'),
      missing: at('plain/no-such-page'),
      missing5k: at('moved/no-such-page'),
      redirect5k: at('moved/legacy-777/a/b'),
    };
  });
}

await main();

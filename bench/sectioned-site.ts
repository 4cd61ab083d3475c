import type autocannon from 'autocannon';
import { seedPages } from './content-fixture.js';
import { apiCall } from './lib.js';

/**
 * The sectioned site of issue 29's "Performance" (bench:published): 5 sections × 3 variants,
 * each variant a space of 100 pages (10 headings × 9 topics, ~1 KB each), and 5,000 redirect
 * rules, all made through the API (addSectionToSite, addSpaceToSite with sectionId,
 * bulkUpsertSiteRedirects in batches of 500); beside it a one-variant site showing the space of
 * the sectioned site's deepest variant, so the measured page is the same page of the same space.
 */

const SECTIONS = 5;
const VARIANTS = 3;
const HEADINGS = 10;
const TOPICS = 9;
/** The measured page: the 4th topic under the 7th heading. */
const PAGE = 'heading-7/topic-4';

export interface SectionedTargets {
  /** The page on the one-variant site (the reference). */
  oneVariant: autocannon.Options;
  /** The same page of the same space: section 5 (not the default), variant 3 (not the default). */
  sectionedDeep: autocannon.Options;
  /** The same page (of its own, identically shaped space) in the default section's default variant. */
  sectionedDefault: autocannon.Options;
}

export async function sectionedTargets(base: string, org: string): Promise<SectionedTargets> {
  const spaces: string[][] = [];
  for (let s = 0; s < SECTIONS; s++) {
    const row: string[] = [];
    for (let v = 0; v < VARIANTS; v++) {
      row.push(await seedPages(base, org, `S${s + 1} V${v + 1}`, HEADINGS, TOPICS, 'Heading'));
    }
    spaces.push(row);
  }
  const first = spaces[0]?.[0] ?? '';
  const site = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
    title: 'Sectioned',
    spaces: [first],
  });
  const siteBase = `/v1/orgs/${org}/sites/${String(site.id)}`;
  // The first section added gathers the site's one site-space into a default section.
  const sectionIds: string[] = [];
  for (let s = 1; s < SECTIONS; s++) {
    const section = await apiCall(base, 'POST', `${siteBase}/sections`, {
      spaceId: spaces[s]?.[0] ?? '',
      title: `Section ${s + 1}`,
    });
    sectionIds.push(String(section.id));
  }
  const structure = (await apiCall(base, 'GET', `${siteBase}/structure`)) as {
    structure: { id: string; default: boolean }[];
  };
  const defaultSection = structure.structure.find((node) => node.default)?.id ?? '';
  sectionIds.unshift(defaultSection);
  let deepest = '';
  for (let s = 0; s < SECTIONS; s++) {
    for (let v = 1; v < VARIANTS; v++) {
      const variant = await apiCall(base, 'POST', `${siteBase}/site-spaces`, {
        spaceId: spaces[s]?.[v] ?? '',
        sectionId: sectionIds[s] ?? '',
        title: `Variant ${v + 1}`,
      });
      deepest = String((variant.urls as { published: string }).published);
    }
  }
  await apiCall(base, 'PATCH', siteBase, { basename: 'sectioned' });
  await apiCall(base, 'POST', `${siteBase}/publish`);
  await addRedirects(base, siteBase);
  const one = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
    title: 'One variant',
    spaces: [spaces[SECTIONS - 1]?.[VARIANTS - 1] ?? ''],
  });
  const oneBase = `/v1/orgs/${org}/sites/${String(one.id)}`;
  await apiCall(base, 'PATCH', oneBase, { basename: 'onevariant' });
  await apiCall(base, 'POST', `${oneBase}/publish`);
  // The published URL of the deepest variant, after the basename and the publication.
  const listed = (await apiCall(base, 'GET', `${siteBase}/structure`)) as {
    structure: { siteSpaces: { urls: { published?: string } }[] }[];
  };
  deepest = listed.structure[SECTIONS - 1]?.siteSpaces[VARIANTS - 1]?.urls.published ?? deepest;
  const deepPath = `${new URL(deepest).pathname.replace(/\/$/, '')}/${PAGE}`;
  const targets = {
    oneVariant: `/s/onevariant/${PAGE}`,
    sectionedDeep: deepPath,
    sectionedDefault: `/s/sectioned/${PAGE}`,
  };
  const sizes: string[] = [];
  for (const [name, path] of Object.entries(targets)) {
    const res = await fetch(`${base}${path}`, { redirect: 'manual' });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('Topic 4')) {
      throw new Error(`${name} ${path}: ${res.status}`);
    }
    sizes.push(`${name} ${path} ${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB`);
  }
  process.stdout.write(`sectioned site, pages measured: ${sizes.join('; ')}\n`);
  return {
    oneVariant: { url: `${base}${targets.oneVariant}` },
    sectionedDeep: { url: `${base}${targets.sectionedDeep}` },
    sectionedDefault: { url: `${base}${targets.sectionedDefault}` },
  };
}

/** 5,000 rules (4,000 exact sources, 1,000 prefix sources with capture) in ten requests of 500. */
export async function addRedirects(base: string, siteBase: string, rules = 5_000): Promise<void> {
  const prefixes = rules / 5;
  for (let start = 0; start < rules; start += 500) {
    const redirects = Array.from({ length: 500 }, (_, k) => {
      const i = start + k;
      return i < prefixes
        ? {
            source: `/legacy-${i}/*`,
            captureWildcard: true,
            destination: { kind: 'external', url: `https://example.com/legacy/${i}` },
          }
        : {
            source: `/old-${i}`,
            destination: { kind: 'external', url: `https://example.com/${i}` },
          };
    });
    await apiCall(base, 'PUT', `${siteBase}/redirects`, { redirects });
  }
}

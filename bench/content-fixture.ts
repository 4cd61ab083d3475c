import { apiCall } from './lib.js';

/**
 * The content of the content and published-site benchmarks: a space of 220 pages, 20 sections of
 * 10 pages each plus a page per section heading, every body ~1 KB, with 64 ratings on one page.
 */
const SECTIONS = 20;
const PER_SECTION = 10;
const BODY = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16)}\n`;

export interface Fixture {
  space: string;
  page: string;
  changeRequest: string;
}

/** 220 pages through change requests (50 changes per request, GitBook's limit), merged. */
export async function seedContent(base: string, getUrl: string): Promise<Fixture> {
  const orgId = new URL(getUrl).pathname.split('/')[3] ?? '';
  const space = await seedPages(base, orgId, 'Docs', SECTIONS, PER_SECTION);
  const spaceBase = `/v1/spaces/${space}`;
  const page = (await call(base, 'GET', `${spaceBase}/content/path/section-7%2Ftopic-5`)).id;
  for (let v = 0; v < 64; v++) {
    await call(base, 'PUT', `${spaceBase}/pages/${page}/feedbacks/visitor-${v}`, {
      rating: ['good', 'ok', 'bad'][v % 3],
    });
  }
  const editing = (await call(base, 'POST', `${spaceBase}/change-requests`, { subject: 'Edits' }))
    .id;
  return { space: String(space), page: String(page), changeRequest: String(editing) };
}

/**
 * A new space of `headings` top-level pages (`{headingTitle} N`), each with `topics` children
 * (`Topic N`), every body ~1 KB, through one change request (50 changes per request), merged.
 */
export async function seedPages(
  base: string,
  orgId: string,
  title: string,
  headings: number,
  topics: number,
  headingTitle = 'Section',
): Promise<string> {
  const space = (await call(base, 'POST', `/v1/orgs/${orgId}/spaces`, { title })).id;
  const spaceBase = `/v1/spaces/${space}`;
  const cr = (await call(base, 'POST', `${spaceBase}/change-requests`, { subject: 'Seed' })).id;
  const crBase = `${spaceBase}/change-requests/${cr}`;
  const insert = (title: string, into?: string) => ({
    operation: 'insert_page',
    title,
    document: { markdown: `# ${title}\n\n${BODY}` },
    ...(into === undefined ? {} : { into }),
  });
  await call(base, 'POST', `${crBase}/content`, {
    changes: Array.from({ length: headings }, (_, s) => insert(`${headingTitle} ${s + 1}`)),
  });
  const tree = (await call(base, 'GET', `${crBase}/content/pages`)).pages as { id: string }[];
  const changes = tree.flatMap((section) =>
    Array.from({ length: topics }, (_, p) => insert(`Topic ${p + 1}`, section.id)),
  );
  for (let i = 0; i < changes.length; i += 50) {
    await call(base, 'POST', `${crBase}/content`, { changes: changes.slice(i, i + 50) });
  }
  await call(base, 'POST', `${crBase}/merge`, {});
  return String(space);
}

const call = async (base: string, method: string, path: string, body?: unknown) =>
  (await apiCall(base, method, path, body)) as Record<string, unknown> & { id: string };

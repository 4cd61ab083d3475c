import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKEND } from '../helpers/backend.js';
import { call, type Reply } from '../helpers/load.js';
import {
  type ServerProcess,
  startTwoOnFreshDatabase,
  type TwoProcesses,
} from '../helpers/process.js';

const TOKEN = 'gb_multi-process-content-token-0123456789';

/** The 409 a content write answers when it lost every compare-and-swap it tried. */
const KEPT_CHANGING = /kept changing/;

interface Page {
  id: string;
  title: string;
  pages?: Page[];
}

const flatten = (pages: Page[]): Page[] =>
  pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

const doc = (title: string) => ({
  operation: 'insert_page',
  title,
  document: { markdown: `# ${title}\n\nAbout ${title}.\n` },
});

/** A reply is a success, or the "kept changing" 409; anything else fails naming it. */
function wonOrBusy(reply: Reply, what: string): boolean {
  if (reply.status === 200) return true;
  assert.equal(reply.status, 409, `${what}: ${JSON.stringify(reply.body)}`);
  const message = (reply.body.error as { message?: string } | undefined)?.message ?? '';
  assert.match(message, KEPT_CHANGING, `${what}: a 409 other than "kept changing": ${message}`);
  return false;
}

/**
 * Content writes from two Livery processes on one database (docs/content.md): within a process
 * they queue per space, across processes the compare-and-swap on the revision id decides; no
 * write may be lost or applied twice, and a write through one process is what the other reads.
 */
describe(`content writes from two processes, one database (${BACKEND})`, () => {
  let two: TwoProcesses;
  let a: ServerProcess;
  let b: ServerProcess;
  let orgId: string;
  before(async () => {
    two = await startTwoOnFreshDatabase(TOKEN);
    ({ a, b, orgId } = two);
  });
  after(async () => two?.close());

  const ok = async (reply: Promise<Reply>, status = 200): Promise<Record<string, unknown>> => {
    const r = await reply;
    assert.equal(r.status, status, JSON.stringify(r.body));
    return r.body;
  };

  async function newSpace(server: ServerProcess, title: string): Promise<string> {
    const body = await ok(
      call(server.url, TOKEN, 'POST', `/v1/orgs/${orgId}/spaces`, { title }),
      201,
    );
    return body.id as string;
  }

  async function openChangeRequest(
    server: ServerProcess,
    spaceId: string,
    subject: string,
  ): Promise<string> {
    const body = await ok(
      call(server.url, TOKEN, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject }),
      201,
    );
    return body.id as string;
  }

  const edit = (server: ServerProcess, spaceId: string, cr: string, changes: unknown[]) =>
    call(server.url, TOKEN, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes,
    });

  const merge = (server: ServerProcess, spaceId: string, cr: string) =>
    call(server.url, TOKEN, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);

  async function pagesAt(server: ServerProcess, path: string): Promise<Page[]> {
    const body = await ok(call(server.url, TOKEN, 'GET', path));
    return flatten(body.pages as Page[]);
  }

  const spacePages = (server: ServerProcess, spaceId: string) =>
    pagesAt(server, `/v1/spaces/${spaceId}/content/pages`);
  const crPages = (server: ServerProcess, spaceId: string, cr: string) =>
    pagesAt(server, `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`);

  async function spaceRevision(server: ServerProcess, spaceId: string): Promise<string> {
    return (await ok(call(server.url, TOKEN, 'GET', `/v1/spaces/${spaceId}`))).revision as string;
  }

  async function parentsOf(
    server: ServerProcess,
    spaceId: string,
    revision: string,
  ): Promise<string[]> {
    const body = await ok(
      call(server.url, TOKEN, 'GET', `/v1/spaces/${spaceId}/revisions/${revision}`),
    );
    return body.parents as string[];
  }

  /** A change request inserting `titles`, merged through `server`; answers the page ids. */
  async function seed(
    server: ServerProcess,
    spaceId: string,
    titles: string[],
  ): Promise<Map<string, string>> {
    const cr = await openChangeRequest(server, spaceId, 'Seed');
    await ok(edit(server, spaceId, cr, titles.map(doc)));
    await ok(merge(server, spaceId, cr));
    const pages = await spacePages(server, spaceId);
    return new Map(pages.map((p) => [p.title, p.id]));
  }

  test('20 simultaneous edits of one change request through both processes: none lost, none doubled', async (t) => {
    const spaceId = await newSpace(a, 'Edits');
    const cr = await openChangeRequest(a, spaceId, 'Many hands');
    // Warm both processes' reads of the change request, so a stale cached answer would show.
    assert.deepEqual(await crPages(a, spaceId, cr), []);
    assert.deepEqual(await crPages(b, spaceId, cr), []);

    const writers = Array.from({ length: 20 }, (_, i) => {
      const server = i % 2 === 0 ? a : b;
      const title = `Page ${i} via ${server === a ? 'A' : 'B'}`;
      return edit(server, spaceId, cr, [doc(title)]).then((reply) => ({ title, server, reply }));
    });
    const replies = await Promise.all(writers);

    const won = replies.filter(({ title, reply }) => wonOrBusy(reply, title));
    const busyOn = (server: ServerProcess) =>
      replies.filter((r) => r.server === server && r.reply.status === 409).length;
    t.diagnostic(
      `${BACKEND}: ${won.length}/20 edits answered 200; 409 "kept changing": ` +
        `${busyOn(a)}/10 through A, ${busyOn(b)}/10 through B`,
    );
    for (const { title, reply } of won) {
      assert.equal(reply.body.id, cr, `${title}: the answer is the change request`);
    }

    const expected = won.map((w) => w.title).sort();
    for (const [name, server] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const titles = (await crPages(server, spaceId, cr)).map((p) => p.title).sort();
      assert.deepEqual(titles, expected, `through ${name}: exactly the pages of the 200 answers`);
    }
    assert.ok(won.length >= 10, `at least half the edits succeed (${won.length}/20 did)`);

    // Every success is its own revision in one chain: following first parents back from the
    // change request's revision passes one revision per successful edit before its base.
    const request = await ok(
      call(b.url, TOKEN, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr}`),
    );
    let revision = request.revision as string;
    let steps = 0;
    while (revision !== request.revisionInitial) {
      steps += 1;
      assert.ok(steps <= 20, 'the chain ends at the base within 20 revisions');
      revision = (await parentsOf(a, spaceId, revision))[0] as string;
    }
    assert.equal(steps, won.length, 'one revision per successful edit, none for a failed one');
  });

  test('two change requests on different pages merged at the same moment through A and B', async (t) => {
    const spaceId = await newSpace(a, 'Merges');
    const ids = await seed(a, spaceId, ['Left', 'Right']);
    const left = ids.get('Left') as string;
    const right = ids.get('Right') as string;
    const outcomes: string[] = [];

    for (let round = 1; round <= 5; round++) {
      const before = await spaceRevision(a, spaceId);
      const viaA = await openChangeRequest(a, spaceId, `A ${round}`);
      const viaB = await openChangeRequest(b, spaceId, `B ${round}`);
      const titleA = `Left ${round}`;
      const titleB = `Right ${round}`;
      await ok(
        edit(a, spaceId, viaA, [
          { operation: 'update_page', page: left, title: titleA },
          doc(`New A ${round}`),
        ]),
      );
      await ok(
        edit(b, spaceId, viaB, [
          { operation: 'update_page', page: right, title: titleB },
          doc(`New B ${round}`),
        ]),
      );

      const [fromA, fromB] = await Promise.all([merge(a, spaceId, viaA), merge(b, spaceId, viaB)]);
      const aWon = wonOrBusy(fromA, `round ${round}, merge through A`);
      const bWon = wonOrBusy(fromB, `round ${round}, merge through B`);
      outcomes.push(`${fromA.status}/${fromB.status}`);
      assert.ok(aWon || bWon, `round ${round}: at least one of two merges succeeds`);
      for (const reply of [fromA, fromB]) {
        if (reply.status === 200) assert.equal(reply.body.result, 'merge');
      }

      // The later merge is the one built on the other: its first parent is the other's revision.
      const merged = [fromA, fromB].filter((r) => r.status === 200).map((r) => r.body.revision);
      const parents = new Map<string, string>();
      for (const revision of merged) {
        parents.set(revision as string, (await parentsOf(b, spaceId, revision as string))[0] ?? '');
      }
      const later = merged.find((r) => !merged.some((o) => parents.get(o as string) === r));
      assert.ok(typeof later === 'string', `round ${round}: one merge is the latest`);
      if (merged.length === 2) {
        const earlier = merged.find((r) => r !== later) as string;
        assert.equal(
          parents.get(later),
          earlier,
          `round ${round}: the later merge follows the other`,
        );
        assert.equal(parents.get(earlier), before, `round ${round}: the earlier follows the base`);
      } else {
        assert.equal(parents.get(later), before, `round ${round}: the merge follows the base`);
      }
      for (const [name, server] of [
        ['A', a],
        ['B', b],
      ] as const) {
        assert.equal(
          await spaceRevision(server, spaceId),
          later,
          `round ${round}: the space's revision through ${name} is the later merge's`,
        );
      }

      const titles = new Set((await spacePages(b, spaceId)).map((p) => p.title));
      if (aWon) {
        assert.ok(titles.has(titleA) && titles.has(`New A ${round}`), `round ${round}: A kept`);
      }
      if (bWon) {
        assert.ok(titles.has(titleB) && titles.has(`New B ${round}`), `round ${round}: B kept`);
      }
      // A losing merge leaves its change request open, to be merged again: nothing is lost.
      for (const [cr, won, server] of [
        [viaA, aWon, a],
        [viaB, bWon, b],
      ] as const) {
        if (won) continue;
        assert.equal((await merge(server, spaceId, cr)).status, 200, `round ${round}: retried`);
      }
      const after = new Set((await spacePages(a, spaceId)).map((p) => p.title));
      for (const title of [titleA, titleB, `New A ${round}`, `New B ${round}`]) {
        assert.ok(after.has(title), `round ${round}: ${title} is in the space`);
      }
    }
    t.diagnostic(`${BACKEND}: merge statuses (A/B) per round: ${outcomes.join(', ')}`);
  });

  test('a merge through one process is what the other reads on the very next request', async () => {
    const spaceId = await newSpace(a, 'Fresh');
    for (let i = 0; i < 6; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const title = `Fresh ${i}`;
      const cr = await openChangeRequest(writer, spaceId, title);
      // Warm the reader's caches of the space's pages, revision and the change request.
      const before = (await spacePages(reader, spaceId)).map((p) => p.title);
      assert.equal(before.length, i, `round ${i}: the earlier merges`);
      assert.deepEqual(await crPages(reader, spaceId, cr), await spacePages(reader, spaceId));

      await ok(edit(writer, spaceId, cr, [doc(title)]));
      const inCr = (await crPages(reader, spaceId, cr)).map((p) => p.title);
      assert.ok(inCr.includes(title), `round ${i}: the edit is read through the other process`);

      const merged = await ok(merge(writer, spaceId, cr));
      const after = (await spacePages(reader, spaceId)).map((p) => p.title);
      assert.deepEqual(after.sort(), [...before, title].sort(), `round ${i}: the merge is read`);
      assert.equal(await spaceRevision(reader, spaceId), merged.revision, `round ${i}: revision`);
      const request = await ok(
        call(reader.url, TOKEN, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr}`),
      );
      assert.equal(request.status, 'merged', `round ${i}: the change request reads as merged`);
      assert.equal(request.revisionMerged, merged.revision);
    }
  });
});

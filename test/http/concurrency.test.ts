import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSite, createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import { call, expectedValue, FIELDS, fieldValue, listen, patchOf } from '../helpers/load.js';

const CLIENTS = 50;
const PATCHES = 20;

describe(`no lost writes under concurrency (${BACKEND})`, () => {
  let t: TestContext;
  let base: string;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' }); // thousands of requests, one token
    base = await listen(t);
  });
  after(async () => t.close());

  test(`${CLIENTS} clients × ${PATCHES} PATCHes of one variant, with GETs between: nothing acknowledged is lost`, async () => {
    const site = await createSite(t, 1);
    const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    // Set before the storm and written by nobody during it: must survive untouched.
    expectStatus(
      await t.request({ method: 'PATCH', url: path, payload: { pagination: { enabled: false } } }),
      200,
    );

    const lastAcknowledged = new Map<number, number>();
    const failures: string[] = [];
    let reads = 0;
    const client = async (writer: number) => {
      const field = FIELDS[writer % FIELDS.length] ?? 'title';
      for (let seq = 1; seq <= PATCHES; seq++) {
        const reply = await call(base, t.token, 'PATCH', path, patchOf(field, writer, seq));
        if (reply.status !== 200) {
          failures.push(`writer ${writer} PATCH ${seq}: ${reply.status}`);
          continue;
        }
        // The answer is the state right after this write: it must hold this write's value.
        if (fieldValue(reply.body, field) !== expectedValue(field, writer, seq)) {
          failures.push(`writer ${writer} PATCH ${seq}: answer lacks its own write`);
        }
        lastAcknowledged.set(writer, seq);
        if (seq % 4 === 0) {
          const read = await call(base, t.token, 'GET', path);
          if (read.status !== 200) failures.push(`writer ${writer} GET: ${read.status}`);
          reads += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, writer) => client(writer)));
    assert.deepEqual(failures, []);
    assert.equal(reads, (CLIENTS * PATCHES) / 4);

    const final = await call(base, t.token, 'GET', path);
    assert.equal(final.status, 200);
    for (const field of FIELDS) {
      // Last writer wins per field: the final value is the last write of one of its writers
      // (each writer's writes are sequential, so none of its earlier values can be final).
      const writers = [...lastAcknowledged.keys()].filter(
        (w) => FIELDS[w % FIELDS.length] === field,
      );
      const candidates = writers.map((w) => expectedValue(field, w, PATCHES));
      assert.ok(
        candidates.includes(fieldValue(final.body, field)),
        `${field}: ${String(fieldValue(final.body, field))} is not any writer's last value`,
      );
    }
    assert.deepEqual(final.body.pagination, { enabled: false }, 'an untouched field survived');
    assert.equal(lastAcknowledged.size, CLIENTS);
  });

  test('with If-Match, exactly one of N racing writers wins; the others get 412', async () => {
    const site = await createSite(t, 1);
    const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    for (let round = 0; round < 5; round++) {
      const current = await call(base, t.token, 'GET', path);
      assert.ok(current.etag !== null);
      const racers = Array.from({ length: 20 }, (_, i) =>
        call(
          base,
          t.token,
          'PATCH',
          path,
          { title: `round ${round} racer ${i}` },
          {
            'if-match': current.etag ?? '',
          },
        ),
      );
      const replies = await Promise.all(racers);
      const statuses = replies.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, ...Array(19).fill(412)], `round ${round}`);
      const winner = replies.find((r) => r.status === 200);
      const after = await call(base, t.token, 'GET', path);
      assert.equal(after.body.title, winner?.body.title, 'the stored title is the winner’s');
      for (const loser of replies.filter((r) => r.status === 412)) {
        assert.equal((loser.body.error as { code: number }).code, 412);
      }
    }
  });
});

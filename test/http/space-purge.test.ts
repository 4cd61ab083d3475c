import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type buildServices } from '../../src/app.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { SpaceTrashSweep } from '../../src/modules/spaces/trash.js';
import { SpaceTrashRepository } from '../../src/modules/spaces/trash-repository.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { importAndWait, newSpace } from '../helpers/git-import.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';

/**
 * The purge of deleted spaces survives a restart (docs/content.md): a space deleted, the app
 * stopped, and started again on the same database with its clock 8 days on, is purged by the
 * sweep of the new start, with its pages, revisions and file sets, while the file bytes a copy
 * of it shares stay. No sleeping: the clock is the app's (AppDependencies.clock).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const repo = new TestRepo();
let t: TestContext;
before(async () => {
  t = await createTestApp({ GIT_LOCAL_DIRS: repo.root, GIT_CACHE_DIR: `${repo.root}/.cache` });
});
after(async () => {
  await t.close();
  repo.dispose();
});

/** Rows of a space in each table its content lives in. */
async function stored(db: Db, spaceId: string) {
  const count = async (
    table: 'spaces' | 'revisions' | 'page_nodes' | 'page_bodies' | 'content_sets',
  ) => {
    const column = table === 'spaces' ? 'id' : 'space_id';
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', spaceId)
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  return {
    spaces: await count('spaces'),
    revisions: await count('revisions'),
    nodes: await count('page_nodes'),
    bodies: await count('page_bodies'),
    sets: await count('content_sets'),
  };
}

test('several processes sweeping at once purge each space exactly once', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const id = await newSpace(t, `Swept ${i}`);
    ids.push(id);
  }
  await t.db
    .updateTable('spaces')
    .set({ deleted_at: new Date(Date.now() - 8 * DAY_MS).toISOString() })
    .where('id', 'in', ids)
    .execute();
  const dbs = [openDatabase(t.config.database), openDatabase(t.config.database)];
  try {
    const counts = await Promise.all(
      dbs.map((db) => new SpaceTrashSweep(new SpaceTrashRepository(db), Date.now).sweep()),
    );
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      5,
      `each purged once: ${counts}`,
    );
    for (const id of ids) assert.equal((await stored(t.db, id)).spaces, 0);
  } finally {
    await Promise.all(dbs.map((db) => db.destroy()));
  }
});

test('deleted, restarted 8 days later: purged by the new start, shared file bytes kept', async () => {
  repo.commit({
    'README.md': '# Welcome\n\n![Logo](.gitbook/assets/logo.png)\n',
    '.gitbook/assets/logo.png': pngOf(64, 64),
  });
  const spaceId = await newSpace(t, 'Doomed');
  const state = await importAndWait(t, spaceId, { url: `file://${repo.dir}`, ref: 'main' });
  assert.equal(state.operation.state, 'success', JSON.stringify(state));
  const copy = expectStatus(
    await t.request({ method: 'POST', url: `/v1/spaces/${spaceId}/duplicate` }),
    201,
  );
  const revision = expectStatus(await t.request({ url: `/v1/spaces/${copy.id}/content` }), 200);
  const [file] = revision.files as { downloadURL: string; size: number }[];
  assert.ok(file, 'the copy has the file');
  const download = new URL(file.downloadURL).pathname;
  const blobs = Number(
    (
      await t.db
        .selectFrom('file_blobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  assert.equal(blobs, 1, 'the copy shares the bytes: one blob');

  const kept = await newSpace(t, 'Deleted yesterday');
  assert.equal(
    (await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}` })).statusCode,
    205,
  );
  const before = await stored(t.db, spaceId);
  assert.ok(before.spaces === 1 && before.nodes > 0 && before.sets > 0, JSON.stringify(before));
  // The first app stops (the last test: t.close() closes it again, harmlessly); nothing was purged (its 7 days have not passed).
  await t.app.close();
  assert.deepEqual(await stored(t.db, spaceId), before);
  // A space deleted a day before the restart's clock: not due.
  await t.db
    .updateTable('spaces')
    .set({ deleted_at: new Date(Date.now() + 7 * DAY_MS).toISOString() })
    .where('id', '=', kept)
    .execute();

  // A new process: its own connection, the same database, the clock 8 days on.
  const db = openDatabase(t.config.database);
  let services: ReturnType<typeof buildServices> | undefined;
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config: t.config,
      db,
      clock: () => Date.now() + 8 * DAY_MS,
      extend: (_app, built) => {
        services = built;
      },
    });
    await app.ready();
    await services?.spaceTrashSweep.settled();

    assert.deepEqual(await stored(db, spaceId), {
      spaces: 0,
      revisions: 0,
      nodes: 0,
      bodies: 0,
      sets: 0,
    });
    assert.equal((await stored(db, kept)).spaces, 1, 'deleted later: still in the trash');
    const as = { authorization: `Bearer ${t.token}` };
    expectError(
      await app.inject({ method: 'POST', url: `/v1/spaces/${spaceId}/restore`, headers: as }),
      404,
    );
    // The copy's file still downloads: the bytes it shared were not touched.
    const bytes = await app.inject({ url: download });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.rawPayload.length, file.size);
    expectStatus(await app.inject({ url: `/v1/spaces/${copy.id}/content`, headers: as }), 200);
    // The one deleted a day before is restorable still.
    expectStatus(
      await app.inject({ method: 'POST', url: `/v1/spaces/${kept}/restore`, headers: as }),
      200,
    );
  } finally {
    await app?.close();
    await db.destroy();
  }
});

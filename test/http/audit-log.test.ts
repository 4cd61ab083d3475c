/**
 * GET /v1/orgs/{organizationId}/audit-log (src/modules/audit/): who may read it (admins; other
 * roles a 403 naming the role, non-members a 404), its filters (each checked against the
 * unfiltered log), its pages (newest first), retention (AUDIT_LOG_KEEP_DAYS: older entries are
 * not listed, then pruned), and that an organization's log holds its own entries only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, type TestContext as NodeTestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InjectOptions } from 'fastify';
import type { Static } from 'typebox';
import type { AuditEntrySchema } from '../../src/modules/audit/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type Member, memberWithRole } from '../helpers/roles.js';
import type { ListOf } from '../helpers/schemas.js';

type EntryJson = Static<typeof AuditEntrySchema>;
type LogJson = ListOf<typeof AuditEntrySchema>;

const DAY_MS = 86_400_000;

/** Sends a request with `token` instead of the owner's. */
const as = (t: TestContext, token: string, options: InjectOptions) =>
  t.request({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });

const logUrl = (orgId: string, query: Record<string, string> = {}) =>
  `/v1/orgs/${orgId}/audit-log?${new URLSearchParams(query)}`;

async function read(
  t: TestContext,
  query: Record<string, string> = {},
  token = t.token,
  orgId = t.orgId,
): Promise<LogJson> {
  const response = await as(t, token, { method: 'GET', url: logUrl(orgId, query) });
  return expectStatus(response, 200) as unknown as LogJson;
}

const ids = (entries: EntryJson[]) => entries.map((entry) => entry.id);

async function createTeam(t: TestContext, title: string, token = t.token, orgId = t.orgId) {
  const response = await as(t, token, {
    method: 'PUT',
    url: `/v1/orgs/${orgId}/teams`,
    payload: { title },
  });
  return (expectStatus(response, 201) as { id: string }).id;
}

describe('the audit log of one organization', () => {
  let t: TestContext;
  let admin: Member;
  /** Members without the admin role. */
  let others: Record<'read' | 'edit', Member>;
  let all: EntryJson[];
  /** Entries before it were made before the pause, entries at or after it after. */
  let middle: string;
  let teamA: string;

  before(async () => {
    t = await createTestApp();
    // Writes by the owner and by a second admin, a few milliseconds apart (entries of the same
    // millisecond are ordered by their random ids), with a pause in the middle.
    const step = async <T>(write: Promise<T>) => {
      const result = await write;
      await sleep(3);
      return result;
    };
    others = {
      read: await step(memberWithRole(t, 'read')),
      edit: await step(memberWithRole(t, 'edit')),
    };
    admin = await step(memberWithRole(t, 'admin'));
    teamA = await step(createTeam(t, 'Alpha'));
    const teamB = await step(createTeam(t, 'Beta', admin.token));
    await sleep(20);
    middle = new Date().toISOString();
    await sleep(20);
    const teamUrl = `/v1/orgs/${t.orgId}/teams/${teamA}`;
    const rename = t.request({ method: 'PATCH', url: teamUrl, payload: { title: 'Alpha 2' } });
    expectStatus(await step(rename), 200);
    const join = as(t, admin.token, { method: 'PUT', url: `${teamUrl}/members/${admin.id}` });
    expectStatus(await step(join), 204);
    const remove = t.request({ method: 'DELETE', url: `/v1/orgs/${t.orgId}/teams/${teamB}` });
    expectStatus(await step(remove), 205);
    const reader = await step(memberWithRole(t, 'read'));
    const url = `/v1/orgs/${t.orgId}/members/${reader.id}`;
    expectStatus(await t.request({ method: 'PATCH', url, payload: { role: 'comment' } }), 200);
    all = (await read(t, { limit: '1000' })).items;
  });
  after(() => t.close());

  test('an admin reads every entry, newest first', async () => {
    assert.deepEqual(
      all.map((entry) => entry.action),
      [
        'member.role.changed',
        'api-token.created',
        'team.deleted',
        'team.member.added',
        'team.updated',
        'team.created',
        'team.created',
        'api-token.created',
        'api-token.created',
        'api-token.created',
      ],
    );
    for (const entry of all) assert.equal(entry.object, 'audit-entry');
    const times = all.map((entry) => entry.at);
    assert.deepEqual(times, [...times].sort().reverse());
    const byAdmin = await read(t, { limit: '1000' }, admin.token);
    assert.deepEqual(ids(byAdmin.items), ids(all));
    assert.equal(byAdmin.count, all.length);
  });

  test('other roles get a 403 naming their role; non-members a 404', async () => {
    for (const role of ['read', 'edit'] as const) {
      const member = others[role];
      const message = expectError(
        await as(t, member.token, { method: 'GET', url: logUrl(t.orgId) }),
        403,
      );
      assert.match(message, new RegExp(`admin role.*your role is ${role}`));
    }
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'Stranger',
    });
    expectError(await as(t, other.token, { method: 'GET', url: logUrl(t.orgId) }), 404);
  });

  test('each filter narrows the log to the entries it names', async () => {
    const cases: [Record<string, string>, (entry: EntryJson) => boolean][] = [
      [{ action: 'team.created' }, (e) => e.action === 'team.created'],
      [{ action: 'team.*' }, (e) => e.action.startsWith('team.')],
      [{ action: 'team.member.*' }, (e) => e.action.startsWith('team.member.')],
      [{ action: 'team.' }, () => false],
      [{ actor: admin.id }, (e) => e.actor.user === admin.id],
      [{ target: teamA }, (e) => e.target.id === teamA],
      [{ since: middle }, (e) => e.at >= middle],
      [{ until: middle }, (e) => e.at < middle],
      [
        { action: 'team.*', actor: t.userId },
        (e) => e.action.startsWith('team.') && e.actor.user === t.userId,
      ],
    ];
    for (const [query, wanted] of cases) {
      const expected = all.filter(wanted);
      if (query.action !== 'team.') {
        assert.ok(expected.length > 0 && expected.length < all.length, JSON.stringify(query));
      }
      const listed = await read(t, { ...query, limit: '1000' });
      assert.deepEqual(ids(listed.items), ids(expected), JSON.stringify(query));
      assert.equal(listed.count, expected.length);
    }
    // The same instant in another time zone bounds the same entries.
    const shifted = new Date(Date.parse(middle) + 2 * 3_600_000)
      .toISOString()
      .replace('Z', '+02:00');
    const since = await read(t, { since: shifted, limit: '1000' });
    assert.deepEqual(ids(since.items), ids(all.filter((e) => e.at >= middle)));
  });

  test('since and until must be date-times (400 naming the field)', async () => {
    for (const field of ['since', 'until']) {
      const message = expectError(
        await t.request({ method: 'GET', url: logUrl(t.orgId, { [field]: 'yesterday' }) }),
        400,
      );
      assert.match(message, new RegExp(`querystring\\.${field}`));
    }
  });

  test('any date-time the schema accepts bounds in time order (leap second, far offsets)', async () => {
    // Each bound is before every entry (since: all, until: none) or after (the reverse).
    const bounds: [string, 'before' | 'after'][] = [
      ['2016-12-31T23:59:60Z', 'before'], // a leap second: Date cannot read it
      ['0000-01-01T00:00:00+01:00', 'before'], // in year -1 once the offset is applied
      ['9999-12-31T23:59:59-23:59', 'after'], // in year 10000
    ];
    for (const [bound, where] of bounds) {
      const since = await read(t, { since: bound, limit: '1000' });
      const until = await read(t, { until: bound, limit: '1000' });
      const [expectedSince, expectedUntil] = where === 'before' ? [all, []] : [[], all];
      assert.deepEqual(ids(since.items), ids(expectedSince), `since ${bound}`);
      assert.deepEqual(ids(until.items), ids(expectedUntil), `until ${bound}`);
    }
  });

  test('pages of 2 walk every entry once, newest first, each with the total count', async () => {
    const walked: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const listed = await read(t, { limit: '2', ...(page === undefined ? {} : { page }) });
      assert.equal(listed.count, all.length);
      assert.ok(listed.items.length <= 2);
      walked.push(...ids(listed.items));
      page = listed.next?.page;
      pages += 1;
    } while (page !== undefined);
    assert.deepEqual(walked, ids(all));
    assert.equal(pages, Math.ceil(all.length / 2));
  });

  test("an organization's log holds its own entries only", async () => {
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Else',
    });
    const before = ids((await read(t, { limit: '1000' })).items);
    const team = await createTeam(t, 'Elsewhere team', other.token, other.organization.id);
    const theirs = await read(t, {}, other.token, other.organization.id);
    assert.deepEqual(
      theirs.items.map((e) => [e.action, e.target.id, e.actor.user]),
      [['team.created', team, other.user.id]],
    );
    assert.deepEqual(ids((await read(t, { limit: '1000' })).items), before);
    assert.equal((await read(t, { target: team })).count, 0);
  });
});

describe('retention (AUDIT_LOG_KEEP_DAYS)', () => {
  async function appWithEntries(c: NodeTestContext, keepDays: string) {
    const t = await createTestApp({ AUDIT_LOG_KEEP_DAYS: keepDays });
    c.after(() => t.close());
    const teams = [await createTeam(t, 'Old'), await createTeam(t, 'Recent')];
    const entries = (await read(t)).items;
    const entryOf = (teamId: string) => {
      const entry = entries.find((e) => e.target.id === teamId);
      assert.ok(entry);
      return entry.id;
    };
    /** Moves an entry back in time, as if it had been recorded that long ago. */
    const age = (teamId: string, ms: number) =>
      t.db
        .updateTable('audit_log')
        .set({ at: new Date(Date.now() - ms).toISOString() })
        .where('id', '=', entryOf(teamId))
        .execute();
    const stored = async () =>
      (await t.db.selectFrom('audit_log').select('id').execute()).map((row) => row.id).sort();
    return {
      t,
      old: entryOf(teams[0] as string),
      recent: entryOf(teams[1] as string),
      teams,
      age,
      stored,
    };
  }

  test('an entry past retention is not listed, and pruning deletes it', async (c) => {
    const { t, old, recent, teams, age, stored } = await appWithEntries(c, '1');
    await age(teams[0] as string, DAY_MS + 60_000);
    await age(teams[1] as string, DAY_MS - 60_000);
    const listed = await read(t);
    assert.ok(!ids(listed.items).includes(old), 'past retention: not listed');
    assert.ok(ids(listed.items).includes(recent), 'within retention: listed');
    assert.equal(listed.count, listed.items.length);
    assert.ok((await stored()).includes(old), 'still stored until pruned');

    assert.equal(await t.services.audit.prune(), 1);
    assert.ok(!(await stored()).includes(old), 'pruned');
    assert.ok((await stored()).includes(recent));
    assert.deepEqual(ids((await read(t)).items), ids(listed.items), 'the same list after pruning');
    assert.equal(await t.services.audit.prune(), 0);
  });

  test('AUDIT_LOG_KEEP_DAYS=0 keeps every entry', async (c) => {
    const { t, old, teams, age, stored } = await appWithEntries(c, '0');
    await age(teams[0] as string, 3650 * DAY_MS);
    assert.ok(ids((await read(t)).items).includes(old));
    assert.equal(await t.services.audit.prune(), 0);
    assert.ok((await stored()).includes(old));
  });
});

/**
 * GitBook 0.202's audit events (src/modules/audit/events.ts): the same entries as Livery's
 * audit-log alias, with GitBook's action names (gitbook-actions.ts), UUIDs, its filters (`from`
 * and `to` inclusive, exact `action`, `actor`, `target`), its page size (20, at most 100), one
 * event by id with its payload, the action list, who may read them, and field-named 400s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gitbookActionOf } from '../../src/modules/audit/gitbook-actions.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type Member, memberWithRole, requestAs } from '../helpers/roles.js';

interface EventJson {
  object: string;
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string };
  source: string;
  target: { type: string; id: string };
  urls: { location: string };
}
interface EventList {
  items: EventJson[];
  next?: { page: string };
  count: number;
}
interface EntryJson {
  id: string;
  at: string;
  action: string;
  actor: { user: string };
  target: { kind: string; id: string };
  details: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestContext;
let admin: Member;
let teamId: string;
/** The alias's view of the whole log, newest first. */
let entries: EntryJson[];

const eventsUrl = (query: Record<string, string> = {}, orgId = t.orgId) =>
  `/v1/orgs/${orgId}/audit-events?${new URLSearchParams(query)}`;

async function events(query: Record<string, string> = {}): Promise<EventList> {
  return expectStatus(
    await t.request({ method: 'GET', url: eventsUrl(query) }),
    200,
  ) as unknown as EventList;
}

async function allEvents(query: Record<string, string> = {}): Promise<EventJson[]> {
  const all: EventJson[] = [];
  let page: string | undefined;
  do {
    const listed = await events({ ...query, limit: '100', ...(page ? { page } : {}) });
    all.push(...listed.items);
    page = listed.next?.page;
  } while (page !== undefined);
  return all;
}

before(async () => {
  t = await createTestApp();
  admin = await memberWithRole(t, 'admin');
  // 25 teams: more than GitBook's default page of 20 events.
  for (let i = 0; i < 25; i++) {
    const created = await requestAs(t, i % 2 === 0 ? admin : { id: t.userId, token: t.token }, {
      method: 'PUT',
      url: `/v1/orgs/${t.orgId}/teams`,
      payload: { title: `Team ${i}` },
    });
    teamId = (expectStatus(created, 201) as { id: string }).id;
    await sleep(2);
  }
  await t.request({
    method: 'PATCH',
    url: `/v1/orgs/${t.orgId}/teams/${teamId}`,
    payload: { title: 'Renamed' },
  });
  // One link invite and one email invite: one Livery action, two GitBook names.
  expectStatus(
    await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/link-invites`,
      payload: { role: 'edit' },
    }),
    201,
  );
  expectStatus(
    await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/invites`,
      payload: { emails: ['invited@example.com'], role: 'read' },
    }),
    200,
  );
  const log = expectStatus(
    await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-log?limit=1000` }),
    200,
  ) as unknown as { items: EntryJson[] };
  entries = log.items;
});
after(async () => t.close());

describe('listOrganizationAuditEvents', () => {
  test("the alias's entries in GitBook's shape, newest first, 20 a page", async () => {
    const first = await events();
    assert.equal(first.items.length, 20);
    assert.equal(first.count, entries.length);
    assert.ok(first.next);
    const all = await allEvents();
    assert.equal(all.length, entries.length);
    assert.equal(new Set(all.map((e) => e.id)).size, all.length, 'ids are unique');
    for (const [i, event] of all.entries()) {
      const entry = entries[i] as EntryJson;
      assert.match(event.id, UUID);
      assert.equal(event.object, 'audit-event');
      assert.equal(event.occurredAt, entry.at);
      assert.equal(event.action, gitbookActionOf(entry.action, entry.details));
      assert.deepEqual(event.actor, { type: 'user', id: entry.actor.user });
      assert.equal(event.source, 'api');
      assert.deepEqual(event.target, { type: entry.target.kind, id: entry.target.id });
      assert.equal(
        event.urls.location,
        `http://livery.test/v1/orgs/${t.orgId}/audit-events/${event.id}`,
      );
    }
    assert.ok(all.some((e) => e.action === 'organization.team.created'));
    assert.ok(all.some((e) => e.action === 'organization.team.updated'));
  });

  test('each filter narrows the events to those it names', async () => {
    const all = await allEvents();
    const middle = all[10] as EventJson;
    const cases: [Record<string, string>, (e: EventJson) => boolean][] = [
      [{ action: 'organization.team.created' }, (e) => e.action === 'organization.team.created'],
      // A Livery name that GitBook's name replaces matches nothing; an unknown name neither.
      [{ action: 'team.created' }, () => false],
      [{ action: 'organization.custom-font.created' }, () => false],
      // An action without a GitBook equivalent keeps its Livery name.
      [{ action: 'member.role.changed' }, (e) => e.action === 'member.role.changed'],
      [
        { action: 'organization.link-invite.created' },
        (e) => e.action === 'organization.link-invite.created',
      ],
      [{ action: 'invite.created' }, (e) => e.action === 'invite.created'],
      [{ actor: admin.id }, (e) => e.actor.id === admin.id],
      [{ target: teamId }, (e) => e.target.id === teamId],
      [{ from: middle.occurredAt }, (e) => e.occurredAt >= middle.occurredAt],
      [{ to: middle.occurredAt }, (e) => e.occurredAt <= middle.occurredAt],
      [
        { from: middle.occurredAt, to: middle.occurredAt, actor: middle.actor.id },
        (e) => e.occurredAt === middle.occurredAt && e.actor.id === middle.actor.id,
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = all.filter(keep).map((e) => e.id);
      const listed = await allEvents(query);
      assert.deepEqual(
        listed.map((e) => e.id),
        expected,
        JSON.stringify(query),
      );
      assert.equal((await events(query)).count, expected.length, JSON.stringify(query));
    }
    assert.ok(all.filter((e) => e.actor.id === admin.id).length > 0);
    for (const name of ['organization.link-invite.created', 'invite.created']) {
      assert.equal(all.filter((e) => e.action === name).length, 1, name);
    }
  });

  test('bad inputs: 400s naming the field', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ limit: '0' }, /limit/],
      [{ limit: '101' }, /limit/],
      [{ limit: 'many' }, /limit/],
      [{ from: 'yesterday' }, /from/],
      [{ to: '2026-13-01T00:00:00Z' }, /to/],
      [{ action: '' }, /action/],
      [{ actor: '' }, /actor/],
      [{ target: '' }, /target/],
      [{ page: 'not-a-cursor' }, /page/],
    ];
    for (const [query, field] of cases) {
      const message = expectError(await t.request({ method: 'GET', url: eventsUrl(query) }), 400);
      assert.match(message, field, JSON.stringify(query));
    }
  });
});

describe('getOrganizationAuditEvent', () => {
  test('each listed event, with its details as payload', async () => {
    const all = await allEvents();
    for (const event of all.slice(0, 5)) {
      const got = expectStatus(
        await t.request({
          method: 'GET',
          url: event.urls.location.replace('http://livery.test', ''),
        }),
        200,
      ) as Record<string, unknown>;
      const entry = entries[all.indexOf(event)] as EntryJson;
      const { schemaVersion, payload, ...rest } = got;
      assert.deepEqual(rest, event);
      assert.equal(schemaVersion, 1);
      assert.deepEqual(payload, { ...entry.details, liveryAction: entry.action });
    }
  });

  test('404 for an unknown, malformed or foreign id', async () => {
    const [event] = (await events()).items as [EventJson];
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'Stranger',
    });
    // The same millisecond, another hash; not a UUID; a UUIDv4; another organization's path.
    const wrongHash = `${event.id.slice(0, 24)}${event.id.slice(24) === '000000000000' ? '111111111111' : '000000000000'}`;
    for (const id of [wrongHash, 'nope', '123e4567-e89b-42d3-a456-426614174000']) {
      expectError(
        await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-events/${id}` }),
        404,
      );
    }
    expectError(
      await requestAs(
        t,
        { id: other.user.id, token: other.token },
        { method: 'GET', url: `/v1/orgs/${other.organization.id}/audit-events/${event.id}` },
      ),
      404,
    );
  });
});

describe('listOrganizationAuditEventActions', () => {
  test('every name an event can carry, once, with a label', async () => {
    const { items } = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-event-actions` }),
      200,
    ) as { items: { object: string; id: string; label: string }[] };
    const ids = items.map((item) => item.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids, [...ids].sort());
    for (const item of items) {
      assert.equal(item.object, 'audit-event-action');
      assert.ok(item.label.length > 0);
    }
    for (const event of await allEvents()) assert.ok(ids.includes(event.action), event.action);
    assert.ok(ids.includes('organization.team.member-added'));
  });
});

describe('who may read audit events', () => {
  test('admins; other members a 403 naming the role; strangers a 404', async () => {
    const urls = [
      eventsUrl(),
      `/v1/orgs/${t.orgId}/audit-event-actions`,
      `/v1/orgs/${t.orgId}/audit-events/${(await events()).items[0]?.id}`,
    ];
    const edit = await memberWithRole(t, 'edit');
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Stranger',
    });
    for (const url of urls) {
      expectStatus(await requestAs(t, admin, { method: 'GET', url }), 200);
      assert.match(expectError(await requestAs(t, edit, { method: 'GET', url }), 403), /admin/);
      expectError(
        await requestAs(t, { id: other.user.id, token: other.token }, { method: 'GET', url }),
        404,
      );
    }
  });
});

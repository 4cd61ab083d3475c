/**
 * The official client of GitBook 0.202 drives the audit events (issue 30) against a listening
 * Livery, with code typed against 0.202: a compliance script written for GitBook reads Livery's
 * log. Shapes are judged in test/conformance/gitbook-conformance-org.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: audit events', () => {
  test('list with filters and pages, get one, list the actions', async () => {
    const { data: team } = await api.orgs.createOrganizationTeam(t.orgId, { title: 'Auditors' });
    await api.orgs.updateTeamInOrganizationById(t.orgId, team.id, { title: 'Reviewers' });
    const { data: page } = await api.orgs.listOrganizationAuditEvents(t.orgId, { limit: 1 });
    assert.equal(page.items.length, 1);
    assert.equal(page.count, 2);
    assert.ok(page.next);
    const [newest] = page.items;
    assert.equal(newest?.action, 'organization.team.updated');
    assert.deepEqual(newest?.actor, { type: 'user', id: t.userId });
    assert.deepEqual(newest?.target, { type: 'team', id: team.id });
    const { data: rest } = await api.orgs.listOrganizationAuditEvents(t.orgId, {
      limit: 1,
      page: page.next?.page,
    });
    assert.equal(rest.items[0]?.action, 'organization.team.created');
    assert.equal(rest.next, undefined);

    const { data: created } = await api.orgs.listOrganizationAuditEvents(t.orgId, {
      action: 'organization.team.created',
      target: team.id,
      actor: t.userId,
      from: rest.items[0]?.occurredAt,
      to: rest.items[0]?.occurredAt,
    });
    assert.deepEqual(
      created.items.map((e) => e.id),
      [rest.items[0]?.id],
    );

    const { data: event } = await api.orgs.getOrganizationAuditEvent(t.orgId, newest?.id as string);
    assert.equal(event.id, newest?.id);
    assert.equal(event.schemaVersion, 1);
    assert.deepEqual(event.payload, {
      from: 'Auditors',
      to: 'Reviewers',
      liveryAction: 'team.updated',
    });

    const { data: actions } = await api.orgs.listOrganizationAuditEventActions(t.orgId);
    assert.ok(
      actions.items.some(
        (a) => a.id === 'organization.team.created' && a.label === 'Created organization team',
      ),
    );

    const missing = await failure0202(
      api.orgs.getOrganizationAuditEvent(t.orgId, '123e4567-e89b-42d3-a456-426614174000'),
    );
    assert.equal(missing.code, 404);
    const tooMany = await failure0202(
      api.orgs.listOrganizationAuditEvents(t.orgId, { limit: 101 }),
    );
    assert.equal(tooMany.code, 400);
    assert.match(tooMany.errorMessage, /limit/);
  });
});

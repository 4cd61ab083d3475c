import type { AuditAction } from './actions.js';

/**
 * How each action Livery records shows in GitBook 0.202's audit events
 * (`listOrganizationAuditEvents`, docs/history.md "GitBook's audit events").
 *
 * - `gitbook`: GitBook's action id for the same change, or null where GitBook has none that
 *   Livery knows of; the event then carries Livery's own action name (GitBook's `action` is any
 *   "stable action name", and Livery's names never collide with GitBook's `organization.*` ones).
 * - `basis`: `documented` when the id is on GitBook's list of audit log actions (its docs page
 *   "Audit log actions"; 0.202's spec has no enum of them), `inferred` when it follows that list's
 *   naming of the same family but was not seen on it.
 * - `label`: the human-readable label `listOrganizationAuditEventActions` answers.
 * - `byKind`: entries whose `details.kind` is `kind` have this name instead (`invite.created`
 *   records email and link invites; GitBook names link invites only).
 *
 * Keyed by every action of AUDIT_ACTIONS: a new action without an entry fails the typecheck and
 * test/unit/audit-gitbook-actions.test.ts (an entry may say `gitbook: null` explicitly).
 */
export interface GitBookActionMapping {
  gitbook: string | null;
  basis?: 'documented' | 'inferred';
  label: string;
  byKind?: { kind: string; gitbook: string; basis: 'documented' | 'inferred'; label: string };
}

/**
 * Which entries a name stands for: an action, and for an action split by kind, the entries whose
 * `details.kind` is (`kind`) or is not (`notKind`) the split's.
 */
export interface ActionMatch {
  action: string;
  kind?: string;
  notKind?: string;
}

const none = (label: string): GitBookActionMapping => ({ gitbook: null, label });
const documented = (gitbook: string, label: string): GitBookActionMapping => ({
  gitbook,
  basis: 'documented',
  label,
});
const inferred = (gitbook: string, label: string): GitBookActionMapping => ({
  gitbook,
  basis: 'inferred',
  label,
});

export const GITBOOK_AUDIT_ACTIONS: Readonly<Record<AuditAction, GitBookActionMapping>> = {
  'customization.updated': none('Updated site customization'),
  'customization.restored': none('Restored site customization'),
  'site.created': none('Created site'),
  'site.deleted': none('Deleted site'),
  'site.published': none('Published site'),
  'site.unpublished': none('Unpublished site'),
  'site.visibility.changed': none('Changed site visibility'),
  'site.basename.changed': none('Changed site basename'),
  'site.redirect.created': documented('site.redirect.created', 'Created site redirect'),
  'site.redirect.updated': inferred('site.redirect.updated', 'Updated site redirect'),
  'site.redirect.deleted': inferred('site.redirect.deleted', 'Deleted site redirect'),
  'site.redirect.published': none('Published draft site redirect'),
  'site.hostname.changed': none('Changed site custom hostname'),
  'site.structure.changed': none('Changed site structure'),
  'share-link.created': none('Created site share link'),
  'share-link.updated': none('Updated site share link'),
  'share-link.revoked': none('Revoked site share link'),
  'visitor-auth.updated': none('Updated site visitor authentication'),
  'visitor-auth.key.regenerated': none('Regenerated site visitor authentication key'),
  'member.role.changed': none('Changed organization member role'),
  'member.added': none('Added organization member'),
  'member.removed': none('Removed organization member'),
  // Email and link invites are one Livery action; GitBook's organization.link-invite.created
  // names link invites only: the entries are told apart by their details' kind.
  'invite.created': {
    ...none('Created organization email invite'),
    byKind: {
      kind: 'link',
      gitbook: 'organization.link-invite.created',
      basis: 'documented',
      label: 'Created organization invite link',
    },
  },
  // Only link invites can be updated or deleted (updateOrganizationInviteById,
  // deleteOrganizationInviteById).
  'invite.updated': documented(
    'organization.link-invite.updated',
    'Updated organization invite link',
  ),
  'invite.accepted': none('Accepted organization invite'),
  'invite.deleted': documented(
    'organization.link-invite.deleted',
    'Deleted organization invite link',
  ),
  'team.created': documented('organization.team.created', 'Created organization team'),
  'team.updated': inferred('organization.team.updated', 'Updated organization team'),
  'team.deleted': documented('organization.team.deleted', 'Deleted organization team'),
  'team.member.added': documented(
    'organization.team.member-added',
    'Added organization team member',
  ),
  'team.member.changed': documented(
    'organization.team.member-updated',
    'Updated organization team member',
  ),
  'team.member.removed': documented(
    'organization.team.member-removed',
    'Removed organization team member',
  ),
  'api-token.created': none('Created API token'),
  'api-token.revoked': none('Revoked API token'),
  'organization.created': none('Created organization'),
  'organization.updated': documented(
    'organization.settings.updated',
    'Updated organization settings',
  ),
  'custom-font.created': inferred('organization.custom-font.created', 'Created a custom font'),
  'custom-font.updated': inferred('organization.custom-font.updated', 'Updated a custom font'),
  'custom-font.deleted': inferred('organization.custom-font.deleted', 'Deleted a custom font'),
  'space.deleted': none('Deleted a space'),
  'space.restored': none('Restored a space'),
  'space.duplicated': none('Duplicated a space'),
  'space.moved': none('Moved a space'),
};

/** The action name an entry recorded as `action` with `details` has in GitBook's audit events. */
export function gitbookActionOf(action: string, details?: Record<string, unknown>): string {
  const mapping = GITBOOK_AUDIT_ACTIONS[action as AuditAction];
  if (mapping?.byKind !== undefined && details?.kind === mapping.byKind.kind) {
    return mapping.byKind.gitbook;
  }
  return mapping?.gitbook ?? action;
}

/** The entries shown as `name` (the `action` filter of listOrganizationAuditEvents). */
export function liveryActionsOf(name: string): ActionMatch[] {
  const matches: ActionMatch[] = [];
  for (const [action, mapping] of Object.entries(GITBOOK_AUDIT_ACTIONS)) {
    const split = mapping.byKind;
    if (split === undefined) {
      if ((mapping.gitbook ?? action) === name) matches.push({ action });
      continue;
    }
    if (split.gitbook === name) matches.push({ action, kind: split.kind });
    if ((mapping.gitbook ?? action) === name) matches.push({ action, notKind: split.kind });
  }
  return matches;
}

/** Every action name an audit event can carry, with its label, in name order. */
export function gitbookActionList(): { id: string; label: string }[] {
  const byId = new Map<string, string>();
  for (const [action, mapping] of Object.entries(GITBOOK_AUDIT_ACTIONS)) {
    byId.set(mapping.gitbook ?? action, mapping.label);
    if (mapping.byKind !== undefined) byId.set(mapping.byKind.gitbook, mapping.byKind.label);
  }
  return [...byId].map(([id, label]) => ({ id, label })).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The mapping as docs/history.md shows it (a test keeps the doc equal to it). */
export function renderGitBookActionTable(): string {
  const rows = Object.entries(GITBOOK_AUDIT_ACTIONS).map(([action, mapping]) => {
    const gitbook =
      mapping.gitbook === null
        ? 'no GitBook equivalent known: shown as the Livery name'
        : `\`${mapping.gitbook}\`${mapping.basis === 'inferred' ? ' (inferred)' : ''}`;
    const split = mapping.byKind;
    const row =
      split === undefined
        ? `| \`${action}\` | ${gitbook} | ${mapping.label} |`
        : `| \`${action}\` | \`${split.gitbook}\` when \`details.kind\` is \`${split.kind}\`, otherwise ${gitbook} | ${split.label}; otherwise ${mapping.label} |`;
    return row;
  });
  return ['| Livery action | GitBook 0.202 action | Label |', '| --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/**
 * Every action the organization audit log records, with what its entry's `target` and `details`
 * hold. The one list docs/history.md and the OpenAPI document describe, and the `action` filter
 * accepts.
 */
export const AUDIT_ACTIONS = {
  'customization.updated':
    'site or site-space: a PUT of a site, or a PATCH or DELETE of a variant; details {operation, revision, siteId}',
  'customization.restored':
    'site or site-space: a restore; details {revision, restoredFrom, siteId}',
  'site.created': 'site: details {title}',
  'site.deleted': 'site: details {title}',
  'site.published': 'site: details {}',
  'site.unpublished': 'site: details {}',
  'site.visibility.changed': 'site: details {from, to}',
  'site.basename.changed': 'site: details {from, to}',
  'site.redirect.created': 'site: a redirect rule created; details {redirect, source, draft}',
  'site.redirect.updated': 'site: a redirect rule changed; details {redirect, source, draft}',
  'site.redirect.deleted': 'site: a redirect rule deleted; details {redirect, source, draft}',
  'site.redirect.published':
    'site: a draft redirect made live (bulk `intent: publish`); details {redirect, source, draft}',
  'site.hostname.changed': 'site: details {from, to} (null: none)',
  'site.structure.changed':
    'site: a section, section group, external link or site-space added, changed, moved or deleted through the structure operations; details {operation, kind, id, title?}',
  'share-link.created': 'share-link: details {siteId, name}',
  'share-link.updated': 'share-link: details {siteId, changed: {field: value}}',
  'share-link.revoked': 'share-link: details {siteId}',
  'visitor-auth.updated': 'site: details {changed: [field names]} (never the key)',
  'visitor-auth.key.regenerated': 'site: details {} (never the key)',
  'member.role.changed': 'user: details {from, to}',
  'member.added':
    'user: an admin creating a user without an invite (POST /v1/users); details {role}',
  'member.removed': 'user: details {role}',
  'invite.created': 'invite: details {kind, role, email?}',
  'invite.updated': 'invite: details {changed: {field: value}}',
  'invite.accepted': 'invite: details {user, role}',
  'invite.deleted': 'invite: details {kind}',
  'team.created': 'team: details {title}',
  'team.updated': 'team: details {from, to}',
  'team.deleted': 'team: details {title}',
  'team.member.added': 'team: details {user, role}',
  'team.member.changed': 'team: details {user, from, to}',
  'team.member.removed': 'team: details {user}',
  'api-token.created':
    'api-token: in every organization its user belongs to; details {label, scopes, expiresAt} (never the secret)',
  'api-token.revoked': 'api-token: in every organization its user belongs to; details {label}',
  'organization.created':
    'organization: created with createOrganization, its creator its first admin; details {title}',
  'organization.updated': 'organization: its title changed; details {from, to}',
  'custom-font.created': 'custom-font: details {fontFamily, weights}',
  'custom-font.updated': 'custom-font: details {fontFamily, weights} (after the change)',
  'custom-font.deleted': 'custom-font: details {fontFamily, weights}',
  'space.deleted': 'space: put in the trash (restorable for 7 days); details {title}',
  'space.restored': 'space: taken out of the trash; details {title, deletedAt}',
  'space.duplicated': 'space: the new copy; details {title, source} (the space copied)',
  'space.moved':
    "space: moved in its organization's order (moveSpace); details {before} or {after} (the space it was put next to)",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export type AuditTargetKind =
  | 'site'
  | 'site-space'
  | 'share-link'
  | 'user'
  | 'invite'
  | 'team'
  | 'api-token'
  | 'organization'
  | 'custom-font'
  | 'space';

import type { SiteRow } from '../../db/schema.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';
import type { SiteChange } from './repository.js';

/**
 * The audit entries of a change to a site: publishing, visibility, basename and hostname, each only when
 * its value really changes (publishing a published site is idempotent and records nothing).
 */
export function siteChangeEntries(
  site: SiteRow,
  fields: SiteChange['fields'] & object,
  actor: Actor,
  at: string,
): AuditEntry[] {
  const entry = (action: AuditEntry['action'], details: Record<string, unknown> = {}) => ({
    organizationId: site.organization_id,
    actor,
    action,
    target: { kind: 'site' as const, id: site.id },
    details,
    at,
  });
  const entries: AuditEntry[] = [];
  if (fields.published !== undefined && fields.published !== site.published) {
    entries.push(entry(fields.published === 1 ? 'site.published' : 'site.unpublished'));
  }
  if (fields.visibility !== undefined && fields.visibility !== site.visibility) {
    entries.push(
      entry('site.visibility.changed', { from: site.visibility, to: fields.visibility }),
    );
  }
  if (fields.basename !== undefined && fields.basename !== site.basename) {
    entries.push(entry('site.basename.changed', { from: site.basename, to: fields.basename }));
  }
  if (fields.hostname !== undefined && fields.hostname !== site.hostname) {
    entries.push(entry('site.hostname.changed', { from: site.hostname, to: fields.hostname }));
  }
  return entries;
}

/** The entry of a site's creation or deletion: its title, which a deleted site no longer shows. */
export function siteEntry(
  site: Pick<SiteRow, 'id' | 'organization_id' | 'title'>,
  action: 'site.created' | 'site.deleted',
  actor: Actor,
): AuditEntry {
  return {
    organizationId: site.organization_id,
    actor,
    action,
    target: { kind: 'site', id: site.id },
    details: { title: site.title },
  };
}

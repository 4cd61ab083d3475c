import { notFound } from '../../errors.js';
import type { PageRequest } from '../../http/pagination.js';
import type { Urls } from '../../urls.js';
import { auditEventUuid, parseAuditEventUuid } from './event-ids.js';
import type { AuditEventDetailsView, AuditEventFilters, AuditEventView } from './event-schemas.js';
import { gitbookActionList, gitbookActionOf, liveryActionsOf } from './gitbook-actions.js';
import type { AuditRepository } from './repository.js';
import type { AuditEntryView } from './schemas.js';
import type { AuditService } from './service.js';

/**
 * The audit log in GitBook 0.202's shape (`listOrganizationAuditEvents`,
 * `getOrganizationAuditEvent`, `listOrganizationAuditEventActions`): the same entries as the
 * Livery alias `listOrganizationAuditLog`, with GitBook's action names (gitbook-actions.ts),
 * UUIDs (event-ids.ts) and field names.
 */
export class AuditEventsService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly audit: AuditService,
    private readonly urls: Urls,
  ) {}

  async list(organizationId: string, filters: AuditEventFilters, page: PageRequest) {
    const { from, to, action, actor, target } = filters;
    const listed = await this.repo.list(
      organizationId,
      {
        ...(from === undefined ? {} : { since: from }),
        ...(to === undefined ? {} : { through: to }),
        ...(action === undefined ? {} : { actions: liveryActionsOf(action) }),
        ...(actor === undefined ? {} : { actor }),
        ...(target === undefined ? {} : { target }),
      },
      this.audit.cutoff(),
      page,
    );
    return { ...listed, items: listed.items.map((entry) => this.event(organizationId, entry)) };
  }

  async get(organizationId: string, auditEventId: string): Promise<AuditEventDetailsView> {
    const named = parseAuditEventUuid(auditEventId);
    const entries =
      named === undefined
        ? []
        : await this.repo.recordedAt(organizationId, named.at, this.audit.cutoff());
    const entry = entries.find((candidate) => named?.matches(candidate.id));
    if (entry === undefined) throw notFound('Audit event', auditEventId);
    return {
      ...this.event(organizationId, entry),
      schemaVersion: 1,
      payload: { ...entry.details, liveryAction: entry.action },
    };
  }

  actions() {
    return {
      items: gitbookActionList().map((action) => ({
        object: 'audit-event-action' as const,
        ...action,
      })),
    };
  }

  private event(organizationId: string, entry: AuditEntryView): AuditEventView {
    const id = auditEventUuid(entry.id, entry.at);
    return {
      object: 'audit-event',
      id,
      occurredAt: entry.at,
      action: gitbookActionOf(entry.action, entry.details),
      actor: { type: 'user', id: entry.actor.user },
      source: 'api',
      target: { type: entry.target.kind, id: entry.target.id },
      urls: { location: `${this.urls.organization(organizationId)}/audit-events/${id}` },
    };
  }
}

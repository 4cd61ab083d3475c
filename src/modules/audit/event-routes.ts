import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, pageRequest } from '../../http/pagination.js';
import { OrgParams, responses } from '../../http/schemas.js';
import {
  AuditEventActionSchema,
  AuditEventDetailsSchema,
  AuditEventQuery,
  AuditEventSchema,
} from './event-schemas.js';
import type { AuditEventsService } from './events.js';

/** GitBook's page size for audit events (0.202: default 20, at most 100). */
const DEFAULT_LIMIT = 20;

const ADMINS_ONLY =
  "Admins only. The same entries as Livery's listOrganizationAuditLog, with GitBook's action names where GitBook has one (docs/history.md). Entries older than AUDIT_LOG_KEEP_DAYS (default 365) are not kept.";

export const auditEventRoutes: FastifyPluginAsyncTypebox<{ events: AuditEventsService }> = async (
  app,
  { events },
) => {
  app.get(
    '/orgs/:organizationId/audit-events',
    {
      schema: {
        operationId: 'listOrganizationAuditEvents',
        summary: 'List organization audit events',
        description: `Recorded changes, newest first. ${ADMINS_ONLY}`,
        tags: ['organizations'],
        params: OrgParams,
        querystring: AuditEventQuery,
        response: responses({ 200: ListSchema(AuditEventSchema) }, [400]),
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      return events.list(
        request.params.organizationId,
        filters,
        pageRequest({ page, limit: limit ?? DEFAULT_LIMIT }),
      );
    },
  );

  app.get(
    '/orgs/:organizationId/audit-events/:auditEventId',
    {
      schema: {
        operationId: 'getOrganizationAuditEvent',
        summary: 'Get an organization audit event',
        description: `One recorded change with its details. ${ADMINS_ONLY}`,
        tags: ['organizations'],
        params: Type.Object({
          ...OrgParams.properties,
          auditEventId: Type.String({ description: 'Unique identifier of the audit event' }),
        }),
        response: responses({ 200: AuditEventDetailsSchema }),
      },
    },
    async (request) => events.get(request.params.organizationId, request.params.auditEventId),
  );

  app.get(
    '/orgs/:organizationId/audit-event-actions',
    {
      schema: {
        operationId: 'listOrganizationAuditEventActions',
        summary: 'List organization audit event actions',
        description:
          'Every action name an audit event can carry, with its label (docs/history.md). Admins only.',
        tags: ['organizations'],
        params: OrgParams,
        response: responses({
          200: Type.Object({ items: Type.Array(AuditEventActionSchema) }),
        }),
      },
    },
    async () => events.actions(),
  );
};

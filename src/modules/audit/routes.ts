import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery } from '../../http/pagination.js';
import { OrgParams, responses } from '../../http/schemas.js';
import { AuditEntrySchema, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (
  app,
  { audit },
) => {
  app.get(
    '/orgs/:organizationId/audit-log',
    {
      schema: {
        operationId: 'listOrganizationAuditLog',
        summary: "List the organization's audit log",
        description:
          "Who did what to the organization's sites and people, newest first (docs/history.md). Entries older than AUDIT_LOG_KEEP_DAYS (default 365) are not kept. Admins only.",
        tags: ['livery'],
        params: OrgParams,
        querystring: Type.Object({ ...PageQuery, ...AuditQuery.properties }),
        response: responses({ 200: ListSchema(AuditEntrySchema) }, [400]),
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      return audit.list(request.params.organizationId, filters, { page, limit });
    },
  );
};

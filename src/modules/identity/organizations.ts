import type { Db } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { newId, now } from '../../ids.js';
import { refuseUnsupported } from '../../unsupported-inputs.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import {
  CREATE_ORGANIZATION_UNSUPPORTED,
  UPDATE_ORGANIZATION_UNSUPPORTED,
} from './organization-inputs.js';
import type { Organization } from './schemas.js';
import type { IdentityService } from './service.js';

export interface CreateOrganizationQuery {
  withDefaultSite?: boolean;
  openapiUrl?: string;
}

/**
 * GitBook's createOrganization and updateOrganizationById (docs/members.md, "Organizations").
 * Who may create one is Livery's decision: a user who is an admin of at least one organization
 * of the server (the people already trusted to run one); they become the new one's admin.
 */
export class OrganizationsService {
  constructor(
    private readonly db: Db,
    private readonly identity: IdentityService,
  ) {}

  async create(
    actor: Actor,
    input: { title: string } & Record<string, unknown>,
    query: CreateOrganizationQuery,
  ): Promise<Organization> {
    if (query.withDefaultSite === true) {
      throw badRequest(
        'querystring.withDefaultSite: Livery creates no default site (create one with createSite); only false is accepted',
      );
    }
    if (query.openapiUrl !== undefined) {
      throw badRequest('querystring.openapiUrl: Livery has no OpenAPI specifications');
    }
    refuseUnsupported(input, CREATE_ORGANIZATION_UNSUPPORTED);
    const id = newId();
    const at = now();
    await this.db.transaction().execute(async (trx) => {
      const admin = await trx
        .selectFrom('memberships')
        .select('organization_id')
        .where('user_id', '=', actor.userId)
        .where('role', '=', 'admin')
        .limit(1)
        .executeTakeFirst();
      if (admin === undefined) {
        throw forbidden(
          'Creating an organization needs the admin role in at least one organization of this server',
        );
      }
      await trx
        .insertInto('organizations')
        .values({ id, title: input.title, created_at: at })
        .execute();
      await trx
        .insertInto('memberships')
        .values({ organization_id: id, user_id: actor.userId, role: 'admin', joined_at: at })
        .execute();
      await recordAudit(trx, {
        organizationId: id,
        actor,
        action: 'organization.created',
        target: { kind: 'organization', id },
        details: { title: input.title },
        at,
      });
    });
    return this.identity.getOrganization(id, actor.userId, 'admin');
  }

  async update(
    organizationId: string,
    actor: Actor,
    role: string,
    input: { title?: string } & Record<string, unknown>,
  ): Promise<Organization> {
    refuseUnsupported(input, UPDATE_ORGANIZATION_UNSUPPORTED);
    const { title } = input;
    if (title !== undefined) {
      await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('organizations')
          .select('title')
          .where('id', '=', organizationId)
          .executeTakeFirst();
        if (row === undefined) throw notFound('organization', organizationId);
        // A title set to what it is changes nothing and records nothing.
        if (row.title === title) return;
        await trx
          .updateTable('organizations')
          .set({ title })
          .where('id', '=', organizationId)
          .execute();
        await recordAudit(trx, {
          organizationId,
          actor,
          action: 'organization.updated',
          target: { kind: 'organization', id: organizationId },
          details: { from: row.title, to: title },
        });
      });
    }
    return this.identity.getOrganization(organizationId, actor.userId, role);
  }
}

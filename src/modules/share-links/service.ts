import { randomBytes } from 'node:crypto';
import type { ShareLinkRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Urls } from '../../urls.js';
import type { AuditAction } from '../audit/actions.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';
import { hashToken } from '../identity/tokens.js';
import type { SitesService } from '../sites/service.js';
import type { ShareLinksRepository } from './repository.js';
import type { ShareLink, UpdateShareLink } from './schemas.js';

/** 24 random bytes: 192 bits, 32 URL-safe characters. */
export function generateShareKey(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Share links of a site. A link's key opens a `share-link` site (`?share=<key>`). Only a hash of
 * the key is stored, like API tokens: the creation response is the one place the key appears.
 * Deactivating or deleting a link makes `verify` refuse its key from the next request on.
 */
export class ShareLinksService {
  constructor(
    private readonly repo: ShareLinksRepository,
    private readonly sites: SitesService,
    private readonly urls: Urls,
  ) {}

  async list(organizationId: string, siteId: string, page: PageRequest): Promise<Page<ShareLink>> {
    await this.sites.requireSite(organizationId, siteId);
    const { rows, count } = await this.repo.list(siteId, page);
    return toPage(rows, page.limit, count, (row) => present(row));
  }

  async create(
    organizationId: string,
    siteId: string,
    name: string,
    actor: Actor,
  ): Promise<ShareLink> {
    const site = await this.sites.requireSite(organizationId, siteId);
    const key = generateShareKey();
    const at = now();
    const row: ShareLinkRow = {
      id: newId('shl_'),
      site_id: siteId,
      name,
      active: 1,
      key_hash: hashToken(key),
      created_at: at,
      updated_at: at,
    };
    await this.repo.insert(row, {
      ...linkEntry(organizationId, row.id, actor, 'share-link.created', { siteId, name }),
      at,
    });
    return present(row, `${this.urls.publishedSite(site)}?share=${key}`);
  }

  async update(
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    input: UpdateShareLink,
    actor: Actor,
  ): Promise<ShareLink> {
    await this.sites.requireSite(organizationId, siteId);
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.active === undefined ? {} : { active: input.active ? 1 : 0 }),
    };
    const row = await this.repo.update(
      siteId,
      shareLinkId,
      { ...change, updated_at: now() },
      (before) => {
        // Only what really changes: renaming a link to its own name records nothing.
        const changed: Record<string, unknown> = {};
        if (change.name !== undefined && change.name !== before.name) changed.name = change.name;
        if (change.active !== undefined && change.active !== before.active) {
          changed.active = change.active === 1;
        }
        if (Object.keys(changed).length === 0) return [];
        const details = { siteId, changed };
        return [linkEntry(organizationId, shareLinkId, actor, 'share-link.updated', details)];
      },
    );
    if (row === undefined) throw notFound('share link', shareLinkId);
    return present(row);
  }

  /** True when the link existed (205), false when it did not (204). */
  async delete(
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    actor: Actor,
  ): Promise<boolean> {
    await this.sites.requireSite(organizationId, siteId);
    const entry = linkEntry(organizationId, shareLinkId, actor, 'share-link.revoked', { siteId });
    return this.repo.delete(siteId, shareLinkId, entry);
  }

  location(organizationId: string, siteId: string, shareLinkId: string): string {
    return this.urls.shareLink(organizationId, siteId, shareLinkId);
  }

  /** Does this key open this site? Only keys of active links of the site do. */
  async verify(siteId: string, key: string): Promise<boolean> {
    if (key === '' || key.length > 256) return false;
    return this.verifyHash(siteId, hashToken(key));
  }

  /** `verify`, given the key's hash (what a site token carries: never the key itself). */
  async verifyHash(siteId: string, keyHash: string): Promise<boolean> {
    return (await this.repo.findActiveByHash(siteId, keyHash)) !== undefined;
  }
}

/** An audit entry about a link: never its key, which is not even stored. */
function linkEntry(
  organizationId: string,
  shareLinkId: string,
  actor: Actor,
  action: AuditAction & `share-link.${string}`,
  details: Record<string, unknown>,
): AuditEntry {
  return {
    organizationId,
    actor,
    action,
    target: { kind: 'share-link', id: shareLinkId },
    details,
  };
}

function present(row: ShareLinkRow, published?: string): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: row.active === 1,
    urls: published === undefined ? {} : { published },
  };
}

import { randomBytes } from 'node:crypto';
import type { ShareLinkRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Urls } from '../../urls.js';
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

  async create(organizationId: string, siteId: string, name: string): Promise<ShareLink> {
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
    await this.repo.insert(row);
    return present(row, `${this.urls.publishedSite(site)}?share=${key}`);
  }

  async update(
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    input: UpdateShareLink,
  ): Promise<ShareLink> {
    await this.sites.requireSite(organizationId, siteId);
    const row = await this.repo.update(siteId, shareLinkId, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.active === undefined ? {} : { active: input.active ? 1 : 0 }),
      updated_at: now(),
    });
    if (row === undefined) throw notFound('share link', shareLinkId);
    return present(row);
  }

  /** True when the link existed (205), false when it did not (204). */
  async delete(organizationId: string, siteId: string, shareLinkId: string): Promise<boolean> {
    await this.sites.requireSite(organizationId, siteId);
    return this.repo.delete(siteId, shareLinkId);
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

import type { ChangeRequestPreviewRow, ChangeRequestRow } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { html, type SafeHtml } from '../../html/safe-html.js';
import { newId, now } from '../../ids.js';
import type { ServerKey } from '../../server-key.js';
import type { ContentRepository } from '../content/repository.js';
import type { ContentService } from '../content/service.js';
import type { PageAnswer } from '../published/rendering/page-answer.js';
import type { PublishedSiteService, RenderLog } from '../published/service.js';
import type { PreviewsRepository } from './repository.js';

/** What the server key signs a preview link's id for (src/server-key.ts). */
export const PREVIEW_PURPOSE = 'change-request-preview';
/** Where previews live below PUBLIC_URL (and below `/s/`, where Livery serves it). */
export const PREVIEW_SEGMENT = '@livery/preview';

/** A change request's preview link, as the API and Git Sync see it. */
export interface PreviewLink {
  id: string;
  /** `{PUBLIC_URL}@livery/preview/{id}.{signature}/`: anyone holding it may read the preview. */
  url: string;
  /** What it is for (a Git branch's name), or null. */
  label: string | null;
  createdAt: string;
}

/** Why a preview no longer shows: its change request was merged or archived, or it was closed. */
export type PreviewEnd = 'merged' | 'archived' | 'closed';

/** What a preview address answers. */
export type PreviewAnswer =
  | { kind: 'missing' }
  | { kind: 'ended'; why: PreviewEnd; html: string }
  | PageAnswer;

const TOKEN = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;
const LIVE: ReadonlySet<ChangeRequestRow['status']> = new Set(['open', 'draft']);

/**
 * Change request previews (docs/change-request-previews.md): a link per change
 * request that lets anyone holding it read the change request's content as the published site
 * shows the space. The link is the row's id signed with the server key; the signature is never
 * stored, so the server can give the same URL again and a leaked database row opens nothing.
 * A link shows pages while its change request is open (or draft) and the link is not closed.
 */
export class ChangeRequestPreviewsService {
  constructor(
    private readonly repo: PreviewsRepository,
    private readonly deps: {
      content: ContentService;
      changeRequests: Pick<ContentRepository, 'findChangeRequest'>;
      published: PublishedSiteService;
      key: ServerKey;
      /** PUBLIC_URL, ending with `/`. */
      publicUrl: string;
      /** PUBLIC_URL's path as Livery serves it: `/s/`. */
      mount: string;
    },
  ) {}

  /**
   * The change request's open link, made when it has none (idempotent; racing callers get the
   * same one). `changeRequestId` is its id, or its number in the space. 404: no such change
   * request in the space; 409: it is merged or archived (a link would show nothing).
   */
  async open(input: {
    spaceId: string;
    changeRequestId: string;
    label?: string | null;
    actor?: string | null;
  }): Promise<PreviewLink> {
    const changeRequest = await this.changeRequestIn(input.spaceId, input.changeRequestId);
    if (!LIVE.has(changeRequest.status)) {
      throw conflict(
        `Change request #${changeRequest.number} is ${changeRequest.status}: it has no preview to show`,
      );
    }
    const row = await this.repo.insertOrOpen({
      id: newId('crp_'),
      space_id: changeRequest.space_id,
      change_request_id: changeRequest.id,
      label: input.label ?? null,
      created_by: input.actor ?? null,
      created_at: now(),
      closed_at: null,
      closed_reason: null,
    });
    return this.linkOf(row);
  }

  /**
   * Ends the change request's open link, if any (its address then answers 410); `reason` is
   * kept and shown on that page. Nothing to close is no error.
   */
  async close(changeRequestId: string, reason?: string): Promise<void> {
    await this.repo.close(changeRequestId, now(), reason ?? null);
  }

  /** The change request's link while it shows pages: open, of an open (or draft) change request. */
  async forChangeRequest(changeRequestId: string): Promise<PreviewLink | undefined> {
    const changeRequest = await this.repo.changeRequest(changeRequestId);
    if (changeRequest === undefined || !LIVE.has(changeRequest.status)) return undefined;
    const row = await this.repo.openOf(changeRequestId);
    return row === undefined ? undefined : this.linkOf(row);
  }

  /** The space's links that show pages, oldest first. */
  async list(spaceId: string): Promise<PreviewLink[]> {
    return (await this.repo.openInSpace(spaceId)).map((row) => this.linkOf(row));
  }

  /** A change request of the space by id or number (404 when none): for the API's routes. */
  async changeRequestIn(spaceId: string, ref: string): Promise<ChangeRequestRow> {
    const found = await this.deps.changeRequests.findChangeRequest(spaceId, ref);
    if (found === undefined) throw notFound('change request', ref);
    return found;
  }

  /**
   * What `{mount}@livery/preview/{token}/{segments}` shows: a page of the change request's
   * revision; `ended` (410) once the link is closed or the change request merged or archived;
   * `missing` (404) for a token that is not a link's (a forged or altered signature, an unknown
   * id), without telling which.
   */
  async page(token: string, segments: readonly string[], log: RenderLog): Promise<PreviewAnswer> {
    const match = TOKEN.exec(token);
    const id = match?.[1];
    const signature = match?.[2];
    if (id === undefined || signature === undefined) return { kind: 'missing' };
    if (!this.deps.key.verify(PREVIEW_PURPOSE, id, signature)) return { kind: 'missing' };
    const row = await this.repo.byId(id);
    if (row === undefined) return { kind: 'missing' };
    const changeRequest = await this.repo.changeRequest(row.change_request_id);
    if (changeRequest === undefined) return { kind: 'missing' };
    const why: PreviewEnd | undefined =
      changeRequest.status === 'merged' || changeRequest.status === 'archived'
        ? changeRequest.status
        : row.closed_at !== null
          ? 'closed'
          : undefined;
    if (why !== undefined) {
      const reason = row.closed_at === null ? null : row.closed_reason;
      return { kind: 'ended', why, html: endedPage(changeRequest, why, reason) };
    }
    const [revision, spaceTitle] = await Promise.all([
      this.deps.content.revisionFor(row.space_id, {
        kind: 'change-request',
        changeRequest: changeRequest.id,
      }),
      this.repo.spaceTitle(row.space_id),
    ]);
    return this.deps.published.revisionPage(
      {
        spaceId: row.space_id,
        spaceTitle: spaceTitle ?? '',
        revision,
        root: `${this.deps.mount}${PREVIEW_SEGMENT}/${token}/`,
        pagePath: segments.join('/'),
        banner: bannerOf(changeRequest, row),
      },
      log,
    );
  }

  private linkOf(row: ChangeRequestPreviewRow): PreviewLink {
    const signature = this.deps.key.sign(PREVIEW_PURPOSE, row.id);
    return {
      id: row.id,
      url: `${this.deps.publicUrl}${PREVIEW_SEGMENT}/${row.id}.${signature}/`,
      label: row.label,
      createdAt: row.created_at,
    };
  }
}

function bannerOf(changeRequest: ChangeRequestRow, row: ChangeRequestPreviewRow): SafeHtml {
  const label = row.label === null ? '' : html` <span class="preview-label">(${row.label})</span>`;
  return html`<div class="preview-banner" role="status">Preview of change request <strong>#${String(changeRequest.number)}: ${changeRequest.subject}</strong>${label}</div>\n`;
}

const ENDED: Record<PreviewEnd, string> = {
  merged: 'its change request was merged: the published site shows it now',
  archived: 'its change request was closed',
  closed: 'the preview link was closed',
};

/** The 410 page of a preview that ended: what it was, and why it ended. */
function endedPage(changeRequest: ChangeRequestRow, why: PreviewEnd, reason: string | null) {
  const detail = reason === null ? '' : html` (${reason})`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Preview ended</title></head>
<body><h1>This preview has ended</h1>
<p>The preview of change request #${String(changeRequest.number)}: ${changeRequest.subject} has ended: ${ENDED[why]}${detail}.</p></body></html>
`.html;
}

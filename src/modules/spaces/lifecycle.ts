import { badRequest, conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Actor } from '../audit/actor.js';
import { copyTitle } from './copy.js';
import type { SpacesRepository } from './repository.js';
import type { MoveSpace, Space } from './schemas.js';
import { newSpaceRow, type SpacesService } from './service.js';
import type { SpaceTrashRepository } from './trash-repository.js';

/** How long a deleted space stays restorable (GitBook: "permanently removed after 7 days"). */
export const TRASH_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The time a space deleted now may be purged after, and a restore refused after. */
export function trashCutoff(nowMs: number): string {
  return new Date(nowMs - TRASH_DAYS * DAY_MS).toISOString();
}

/**
 * deleteSpaceById, restoreSpace, duplicateSpace and moveSpace (docs/content.md, "Spaces: delete,
 * restore, duplicate, move"). `clock` is the app's (AppDependencies.clock): a test moves it.
 */
export class SpaceLifecycle {
  constructor(
    private readonly trash: SpaceTrashRepository,
    private readonly live: SpacesRepository,
    private readonly spaces: SpacesService,
    private readonly clock: () => number,
  ) {}

  /** A space's organization, live or in the trash (restoreSpace's access check). */
  organizationOfAny(spaceId: string): Promise<string | undefined> {
    return this.trash.organizationOfAny(spaceId);
  }

  /**
   * deleteSpaceById: true when the space went to the trash (205), false when there was none or it
   * already was there (204). A space a site shows cannot go: 409 naming the sites, so that no
   * published variant loses its content unnoticed.
   */
  async delete(spaceId: string, actor: Actor): Promise<boolean> {
    const at = new Date(this.clock()).toISOString();
    const outcome = await this.trash.delete(spaceId, at, actor);
    if (outcome === 'missing') return false;
    if (outcome !== 'deleted') {
      const sites = outcome.map((site) => `${JSON.stringify(site.title)} (${site.id})`).join(', ');
      throw conflict(
        `Space ${spaceId} is shown by site ${sites}; remove it from the site (deleteSiteSpaceById) first`,
      );
    }
    return true;
  }

  /**
   * restoreSpace: the space again as it was, within 7 days of its deletion. Purged, past its 7
   * days (purged or about to be) or unknown: 404; never deleted: 409.
   */
  async restore(spaceId: string, role: string, actor: Actor): Promise<Space> {
    const nowMs = this.clock();
    const result = await this.trash.restore(
      spaceId,
      trashCutoff(nowMs),
      actor,
      new Date(nowMs).toISOString(),
    );
    switch (result.outcome) {
      case 'missing':
      case 'expired':
        throw notFound('space', spaceId);
      case 'live':
        throw conflict(`Space ${spaceId} is not deleted: only a deleted space can be restored`);
      case 'restored':
        return this.spaces.presentOne(result.row, role);
    }
  }

  /**
   * duplicateSpace: a new space in the same organization, "<title> (copy)", with the source's
   * emoji, icon, language and current content (pages, files, reusable content); not shown by any
   * site, with a history of its own that starts at the copy.
   */
  async duplicate(spaceId: string, role: string, actor: Actor): Promise<Space> {
    const at = new Date(this.clock()).toISOString();
    const copy = await this.trash.duplicate(
      spaceId,
      (source) => ({
        ...newSpaceRow(source.organization_id, { title: copyTitle(source.title, 50) }, at, newId),
        emoji: source.emoji,
        icon: source.icon,
        language: source.language,
      }),
      actor,
    );
    if (copy === undefined) throw notFound('space', spaceId);
    return this.spaces.presentOne(copy, role);
  }

  /**
   * moveSpace: within its organization, `before` or `after` another of its spaces (its order,
   * spaces/order.ts). Livery has no collections: a collection, as parent or pointer, is a 400 on
   * the field, as is a space of another organization (a space moves only within its own). A move
   * that changes nothing (no position, or the place the space already has) is GitBook's 409,
   * "would not result in any update".
   */
  async move(spaceId: string, input: MoveSpace, role: string, actor: Actor): Promise<Space> {
    const space = await this.live.find(spaceId);
    if (space === undefined) throw notFound('space', spaceId);
    if (typeof input.parent === 'string') {
      throw badRequest(
        'body.parent: Livery has no collections; every space is at the top level of its organization (send null, or leave it out)',
      );
    }
    const { before, after } = input.position ?? {};
    if (before !== undefined && after !== undefined) {
      throw badRequest('body.position: give before or after, not both');
    }
    const side = before === undefined ? 'after' : 'before';
    const pointer = before ?? after;
    if (pointer === undefined) throw unchanged(spaceId);
    if (pointer.type === 'collection') {
      throw badRequest(`body.position.${side}.collection: Livery has no collections`);
    }
    const field = `body.position.${side}.space`;
    if (pointer.space === spaceId) {
      throw badRequest(`${field}: a space cannot be placed ${side} itself`);
    }
    const notHere = () =>
      // Unknown, in the trash, or another organization's: one answer, so no id is confirmed.
      badRequest(
        `${field}: no space ${pointer.space} in this space's organization; a space moves only within its organization`,
      );
    const other = await this.live.findInOrganization(pointer.space, space.organization_id);
    if (other === undefined) throw notHere();
    const at = new Date(this.clock()).toISOString();
    const moved = await this.live.move(
      spaceId,
      space.organization_id,
      { side, id: pointer.space },
      { actor, at },
    );
    if (moved === 'unchanged') throw unchanged(spaceId);
    if (moved === 'missing') {
      // One of them went to the trash meanwhile.
      if ((await this.live.find(spaceId)) === undefined) throw notFound('space', spaceId);
      throw notHere();
    }
    return this.spaces.presentOne(moved, role);
  }
}

/** GitBook's 409 for a move that leaves the space where it is. */
function unchanged(spaceId: string) {
  return conflict(
    `moveSpace would not result in any update: space ${spaceId} is already there (docs/content.md)`,
  );
}

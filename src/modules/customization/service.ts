import { isDeepStrictEqual } from 'node:util';
import { MISS } from '../../db/prepared.js';
import { preconditionFailed } from '../../errors.js';
import { now } from '../../ids.js';
import { canonicalPatch } from '../../settings/canonical.js';
import { DEFAULT_SETTINGS } from '../../settings/defaults.js';
import { diff } from '../../settings/json-patch.js';
import {
  effectiveSettings,
  isEmptyOverride,
  type JsonValue,
  mergeOverride,
  type Override,
  settingsFromInput,
} from '../../settings/merge.js';
import type { Settings, SettingsPatch } from '../../settings/settings-schema.js';
import type { Precondition, Representation } from '../../versioned.js';
import type { Actor } from '../audit/actor.js';
import { type Change, recorded } from './change-record.js';
import {
  parse,
  parseOverride,
  requireRevision,
  requireSite,
  requireVariant,
  siteRepresentation,
  variantEtag,
} from './records.js';
import type {
  CustomizationRepository,
  CustomizationUnit,
  SiteCustomizationRecord,
  VariantCustomizationRecord,
} from './repository.js';

/** How many effective documents are kept serialized (each is a few kilobytes). */
const CACHE_SIZE = 10_000;

/**
 * The five customization operations. Every result is a representation: the JSON text, its
 * strong ETag and its last change. ETags are derived from stored version counters, so a read
 * needs no hashing, and the serialized effective settings are cached per variant *by ETag*: a
 * cached text is only used when the database still holds exactly the versions it was made from,
 * which keeps it correct whichever process wrote last.
 *
 * Every write is a read-modify-write unit run serialized inside the group commit: the If-Match
 * check, the merge and the write see the stored state, so concurrent writers never lose each
 * other's changes, and exactly one of several writers holding the same ETag succeeds.
 */
export class CustomizationService {
  private readonly cache = new Map<string, Representation>();
  /**
   * The representation made from a record object. The repository answers the same (unchanged)
   * record object while the database is unchanged, so a GET then costs one lookup here; the
   * cache above still spares the merge when only other rows changed.
   */
  private readonly byRecord = new WeakMap<VariantCustomizationRecord, Representation>();

  constructor(private readonly repo: CustomizationRepository) {}

  async getSite(organizationId: string, siteId: string): Promise<Representation> {
    return siteRepresentation(await requireSite(this.repo, organizationId, siteId));
  }

  /** Full replacement; fields left out or null take their defaults. */
  async putSite(
    organizationId: string,
    siteId: string,
    input: SettingsPatch,
    precondition: Precondition,
    actor: Actor,
  ): Promise<Representation> {
    const settings = settingsFromInput(canonicalPatch(input, () => DEFAULT_SETTINGS.pageActions));
    return this.changeSite(organizationId, siteId, precondition, async () => [
      settings,
      { actor, operation: 'put' },
    ]);
  }

  /**
   * A site import from Git (customization as code): the site's settings become `input` as a PUT
   * would make them, recorded with `message` (the commit); nothing recorded when they are equal.
   */
  async importSite(
    organizationId: string,
    siteId: string,
    input: SettingsPatch,
    message: string,
    actor: Actor,
  ): Promise<Representation> {
    const settings = settingsFromInput(canonicalPatch(input, () => DEFAULT_SETTINGS.pageActions));
    return this.changeSite(
      organizationId,
      siteId,
      () => true,
      async () => [settings, { actor, operation: 'put', message }],
    );
  }

  /**
   * A site import from Git: the variant's override becomes exactly `override` (empty: none),
   * recorded with `message`, as a patch (or a delete when it removes the override).
   */
  async importVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    override: SettingsPatch,
    message: string,
    actor: Actor,
  ): Promise<Representation> {
    const ids = [organizationId, siteId, siteSpaceId] as const;
    return this.changeVariant(
      ids,
      () => true,
      async (_unit, record) => {
        const next = mergeOverride({}, canonicalForVariant(record, {}, override));
        const operation = isEmptyOverride(next) ? 'delete' : 'patch';
        return [next, { actor, operation, message }];
      },
    );
  }

  /**
   * Makes a site revision's document current again, as a PUT of it would (a document of an
   * earlier release gets the fields added since, with their defaults).
   */
  async restoreSite(
    organizationId: string,
    siteId: string,
    number: number,
    precondition: Precondition,
    actor: Actor,
  ): Promise<Representation> {
    return this.changeSite(organizationId, siteId, precondition, async (unit) => {
      const revision = await requireRevision(unit, siteId, number);
      const document = JSON.parse(revision.document ?? 'null') as SettingsPatch;
      const settings = settingsFromInput(
        canonicalPatch(document, () => DEFAULT_SETTINGS.pageActions),
      );
      return [settings, { actor, operation: 'restore', restoredFrom: number }];
    });
  }

  /** A site's read-check-write unit: `nextOf` says what its settings become, and why. */
  private changeSite(
    organizationId: string,
    siteId: string,
    precondition: Precondition,
    nextOf: (unit: CustomizationUnit) => Promise<[Settings, Change]>,
  ): Promise<Representation> {
    return this.repo.update(async (unit) => {
      const record = await requireSite(unit, organizationId, siteId);
      const current = siteRepresentation(record);
      if (!precondition(current.etag)) throw preconditionFailed(current.etag);
      const [settings, change] = await nextOf(unit);
      return this.commitSite(unit, organizationId, record, settings, change);
    });
  }

  /** Stores a site's new settings with their revision and audit entry; no change, no record. */
  private async commitSite(
    unit: CustomizationUnit,
    organizationId: string,
    record: SiteCustomizationRecord,
    settings: Settings,
    change: Change,
  ): Promise<Representation> {
    const current = siteRepresentation(record);
    const previous = parse(current.json);
    // Writing the same settings again changes nothing, not even the ETag.
    if (record.customizationVersion > 0 && isDeepStrictEqual(previous, settings)) return current;
    const json = JSON.stringify(settings);
    const at = now();
    const next = siteRepresentation({
      ...record,
      customization: json,
      customizationVersion: record.customizationVersion + 1,
      customizationUpdatedAt: at,
    });
    const { siteId } = record;
    await unit.writeSite(record, json, {
      ...recorded(organizationId, { kind: 'site', id: siteId }, siteId, at, change),
      scope: siteId,
      etag: next.etag,
      document: json,
      changes: diff(previous as unknown as JsonValue, settings as unknown as JsonValue),
    });
    return next;
  }

  /** The effective settings of a variant: the site's settings with its override applied. */
  async getVariant(organizationId: string, siteId: string, siteSpaceId: string) {
    return this.variantRepresentation(
      await requireVariant(this.repo, organizationId, siteId, siteSpaceId),
    );
  }

  /**
   * getVariant's answer without waiting when the variant's record is kept and current in memory;
   * undefined when it must be read (or does not exist: getVariant says which 404).
   */
  peekVariant(organizationId: string, siteId: string, siteSpaceId: string) {
    const record = this.repo.peekVariant(organizationId, siteId, siteSpaceId);
    return record === MISS || record === undefined ? undefined : this.variantRepresentation(record);
  }

  /** Merges the body into the stored override; returns the new effective settings. */
  async patchVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    patch: SettingsPatch,
    precondition: Precondition,
    actor: Actor,
  ): Promise<Representation> {
    const ids = [organizationId, siteId, siteSpaceId] as const;
    return this.changeVariant(ids, precondition, async (_unit, record) => {
      const stored = parseOverride(record.override);
      const next = mergeOverride(stored, canonicalForVariant(record, stored, patch));
      return [next, { actor, operation: 'patch' }];
    });
  }

  /** Makes a variant revision's override (or its absence) exactly the variant's override again. */
  async restoreVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    number: number,
    precondition: Precondition,
    actor: Actor,
  ): Promise<Representation> {
    const ids = [organizationId, siteId, siteSpaceId] as const;
    return this.changeVariant(ids, precondition, async (unit) => {
      const revision = await requireRevision(unit, siteSpaceId, number);
      return [
        parseOverride(revision.document),
        { actor, operation: 'restore', restoredFrom: number },
      ];
    });
  }

  /** A variant's read-check-write unit: `nextOf` says what its override becomes, and why. */
  private changeVariant(
    [organizationId, siteId, siteSpaceId]: readonly [string, string, string],
    precondition: Precondition,
    nextOf: (
      unit: CustomizationUnit,
      record: VariantCustomizationRecord,
    ) => Promise<[Override, Change]>,
  ): Promise<Representation> {
    return this.repo.update(async (unit) => {
      const record = await requireVariant(unit, organizationId, siteId, siteSpaceId);
      const current = this.variantRepresentation(record);
      if (!precondition(current.etag)) throw preconditionFailed(current.etag);
      const [next, change] = await nextOf(unit, record);
      return (await this.commitOverride(unit, organizationId, record, next, change)) ?? current;
    });
  }

  /**
   * Stores a variant's new override (empty: none) with its revision and audit entry; answers the
   * new representation, or undefined when nothing changed (and nothing was recorded).
   */
  private async commitOverride(
    unit: CustomizationUnit,
    organizationId: string,
    record: VariantCustomizationRecord,
    next: Override,
    change: Change,
  ): Promise<Representation | undefined> {
    const stored = parseOverride(record.override);
    if (isDeepStrictEqual(next, stored)) return undefined;
    const json = isEmptyOverride(next) ? null : JSON.stringify(next);
    const at = now();
    const representation = this.variantRepresentation({
      ...record,
      override: json,
      overrideVersion: record.overrideVersion + 1,
      overrideUpdatedAt: at,
    });
    const { siteId, siteSpaceId } = record;
    const target = { kind: 'site-space', id: siteSpaceId } as const;
    await unit.writeOverride(record, json, {
      ...recorded(organizationId, target, siteId, at, change),
      scope: siteSpaceId,
      etag: representation.etag,
      document: json,
      // No override is the empty object in patches (docs/history.md).
      changes: diff(stored as JsonValue, (json === null ? {} : next) as JsonValue),
    });
    return representation;
  }

  /**
   * The effective settings the variant would have with `patch` merged into its override (as
   * patchVariant would), without saving anything: the published site's preview.
   */
  async previewVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    patch: SettingsPatch,
    /** A draft of the site's settings (a PUT body) to use instead of the stored ones. */
    siteDraft?: SettingsPatch,
  ): Promise<Settings> {
    const record = await requireVariant(this.repo, organizationId, siteId, siteSpaceId);
    const stored = parseOverride(record.override);
    const site =
      siteDraft === undefined
        ? parse(siteRepresentation(record).json)
        : settingsFromInput(canonicalPatch(siteDraft, () => DEFAULT_SETTINGS.pageActions));
    return effectiveSettings(
      site,
      mergeOverride(stored, canonicalForVariant(record, stored, patch)),
    );
  }

  /** The variant's stored override itself (`{}` when none), with the variant's ETag. */
  async getOverride(organizationId: string, siteId: string, siteSpaceId: string) {
    const record = await requireVariant(this.repo, organizationId, siteId, siteSpaceId);
    return { override: parseOverride(record.override), etag: variantEtag(record) };
  }

  /** Removes the override; says whether there was one. */
  async deleteOverride(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    precondition: Precondition,
    actor: Actor,
  ): Promise<{ existed: boolean }> {
    return this.repo.update(async (unit) => {
      const record = await requireVariant(unit, organizationId, siteId, siteSpaceId);
      const etag = variantEtag(record);
      if (!precondition(etag)) throw preconditionFailed(etag);
      if (record.override === null) return { existed: false };
      await this.commitOverride(unit, organizationId, record, {}, { actor, operation: 'delete' });
      return { existed: true };
    });
  }

  private variantRepresentation(record: VariantCustomizationRecord): Representation {
    const known = this.byRecord.get(record);
    if (known !== undefined) return known;
    const etag = variantEtag(record);
    const cached = this.cache.get(record.siteSpaceId);
    if (cached?.etag === etag) {
      this.byRecord.set(record, cached);
      return cached;
    }

    const site = siteRepresentation(record);
    const json =
      record.override === null
        ? site.json
        : JSON.stringify(effectiveSettings(parse(site.json), parseOverride(record.override)));
    const representation: Representation = {
      json,
      etag,
      lastModified: latest(
        record.customizationUpdatedAt ?? record.siteCreatedAt,
        record.overrideUpdatedAt ?? record.siteSpaceCreatedAt,
      ),
    };
    this.remember(record.siteSpaceId, representation);
    this.byRecord.set(record, representation);
    return representation;
  }

  private remember(key: string, representation: Representation): void {
    this.cache.delete(key);
    if (this.cache.size >= CACHE_SIZE) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, representation);
  }
}

/** A PATCH body in stored form; its `pageActions` booleans edit the variant's current value. */
function canonicalForVariant(
  record: VariantCustomizationRecord,
  stored: Override,
  patch: SettingsPatch,
): SettingsPatch {
  return canonicalPatch(
    patch,
    () => effectiveSettings(parse(siteRepresentation(record).json), stored).pageActions,
  );
}

function latest(a: string, b: string): string {
  return a > b ? a : b;
}

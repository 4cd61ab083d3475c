import { isDeepStrictEqual } from 'node:util';
import { MISS } from '../../db/prepared.js';
import { notFound, preconditionFailed } from '../../errors.js';
import { now } from '../../ids.js';
import type { Precondition, Representation } from '../../versioned.js';
import { canonicalPatch } from './canonical.js';
import { DEFAULT_SETTINGS, DEFAULTS_REVISION } from './defaults.js';
import {
  effectiveSettings,
  isEmptyOverride,
  mergeOverride,
  type Override,
  settingsFromInput,
} from './merge.js';
import type {
  CustomizationRepository,
  CustomizationUnit,
  SiteCustomizationRecord,
  VariantCustomizationRecord,
} from './repository.js';
import type { Settings, SettingsPatch } from './settings-schema.js';

const DEFAULT_JSON = JSON.stringify(DEFAULT_SETTINGS);

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
  ): Promise<Representation> {
    const settings = settingsFromInput(canonicalPatch(input, () => DEFAULT_SETTINGS.pageActions));
    const json = JSON.stringify(settings);
    return this.repo.update(async (unit) => {
      const record = await requireSite(unit, organizationId, siteId);
      const current = siteRepresentation(record);
      if (!precondition(current.etag)) throw preconditionFailed(current.etag);
      // Writing the same settings again changes nothing, not even the ETag.
      if (record.customizationVersion > 0 && isDeepStrictEqual(parse(current.json), settings)) {
        return current;
      }
      const at = now();
      await unit.writeSite(record, json, at);
      return siteRepresentation({
        ...record,
        customization: json,
        customizationVersion: record.customizationVersion + 1,
        customizationUpdatedAt: at,
      });
    });
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
  ): Promise<Representation> {
    return this.repo.update(async (unit) => {
      const record = await requireVariant(unit, organizationId, siteId, siteSpaceId);
      const current = this.variantRepresentation(record);
      if (!precondition(current.etag)) throw preconditionFailed(current.etag);
      const stored = parseOverride(record.override);
      const next = mergeOverride(stored, canonicalForVariant(record, stored, patch));
      if (isDeepStrictEqual(next, stored)) return current;
      const json = isEmptyOverride(next) ? null : JSON.stringify(next);
      const at = now();
      await unit.writeOverride(record, json, at);
      return this.variantRepresentation({
        ...record,
        override: json,
        overrideVersion: record.overrideVersion + 1,
        overrideUpdatedAt: at,
      });
    });
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
  ): Promise<Settings> {
    const record = await requireVariant(this.repo, organizationId, siteId, siteSpaceId);
    const stored = parseOverride(record.override);
    const site = parse(siteRepresentation(record).json);
    return effectiveSettings(
      site,
      mergeOverride(stored, canonicalForVariant(record, stored, patch)),
    );
  }

  /** Removes the override; says whether there was one. */
  async deleteOverride(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    precondition: Precondition,
  ): Promise<{ existed: boolean }> {
    return this.repo.update(async (unit) => {
      const record = await requireVariant(unit, organizationId, siteId, siteSpaceId);
      const etag = variantEtag(record);
      if (!precondition(etag)) throw preconditionFailed(etag);
      if (record.override === null) return { existed: false };
      await unit.writeOverride(record, null, now());
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

/** Reads through the cached repository or inside a unit of work alike. */
type Reader = Pick<CustomizationUnit, 'readSite' | 'readVariant'>;

async function requireSite(reader: Reader, organizationId: string, siteId: string) {
  const record = await reader.readSite(organizationId, siteId);
  if (record === undefined) throw notFound('site', siteId);
  return record;
}

async function requireVariant(
  reader: Reader,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<VariantCustomizationRecord> {
  const record = await reader.readVariant(organizationId, siteId, siteSpaceId);
  if (record !== undefined) return record;
  await requireSite(reader, organizationId, siteId); // says which of the two is missing
  throw notFound('site-space', siteSpaceId);
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

// ETags come from the stored versions (and the defaults' revision) alone: no hashing.
const variantEtag = (record: VariantCustomizationRecord) =>
  `"c${DEFAULTS_REVISION}.${record.customizationVersion}.${record.overrideVersion}"`;

function siteRepresentation(record: SiteCustomizationRecord): Representation {
  return {
    json: record.customization ?? DEFAULT_JSON,
    etag: `"c${DEFAULTS_REVISION}.${record.customizationVersion}"`,
    lastModified: record.customizationUpdatedAt ?? record.siteCreatedAt,
  };
}

function parse(json: string): Settings {
  return JSON.parse(json) as Settings;
}

function parseOverride(json: string | null): Override {
  return json === null ? {} : (JSON.parse(json) as Override);
}

function latest(a: string, b: string): string {
  return a > b ? a : b;
}

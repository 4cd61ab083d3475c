import { AppError, notFound } from '../../errors.js';
import { DEFAULT_SETTINGS, DEFAULTS_REVISION } from '../../settings/defaults.js';
import type { Override } from '../../settings/merge.js';
import type { Settings } from '../../settings/settings-schema.js';
import type { Representation } from '../../versioned.js';
import type {
  CustomizationUnit,
  SiteCustomizationRecord,
  VariantCustomizationRecord,
} from './repository.js';

/** The stored records as the API answers them, and the lookups every operation shares. */

const DEFAULT_JSON = JSON.stringify(DEFAULT_SETTINGS);

/** Reads through the cached repository or inside a unit of work alike. */
type Reader = Pick<CustomizationUnit, 'readSite' | 'readVariant'>;

export async function requireSite(reader: Reader, organizationId: string, siteId: string) {
  const record = await reader.readSite(organizationId, siteId);
  if (record === undefined) throw notFound('site', siteId);
  return record;
}

export async function requireVariant(
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

/** A revision of a scope (site or variant), or the 404 naming it: never recorded, or pruned. */
export async function requireRevision<T>(
  reader: { readRevision(scope: string, number: number): Promise<T | undefined> },
  scope: string,
  number: number,
  parameter = 'params.number',
): Promise<T> {
  const revision = await reader.readRevision(scope, number);
  if (revision === undefined) throw unknownRevision(parameter, number);
  return revision;
}

export const unknownRevision = (parameter: string, number: number) =>
  new AppError(
    404,
    `${parameter}: no revision ${number} in this customization's history (never recorded, or pruned)`,
  );

// ETags come from the stored versions (and the defaults' revision) alone: no hashing.
export const variantEtag = (record: VariantCustomizationRecord) =>
  `"c${DEFAULTS_REVISION}.${record.customizationVersion}.${record.overrideVersion}"`;

export function siteRepresentation(record: SiteCustomizationRecord): Representation {
  return {
    json: record.customization ?? DEFAULT_JSON,
    etag: `"c${DEFAULTS_REVISION}.${record.customizationVersion}"`,
    lastModified: record.customizationUpdatedAt ?? record.siteCreatedAt,
  };
}

export function parse(json: string): Settings {
  return JSON.parse(json) as Settings;
}

export function parseOverride(json: string | null): Override {
  return json === null ? {} : (JSON.parse(json) as Override);
}

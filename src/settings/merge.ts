import { DEFAULT_SETTINGS } from './defaults.js';
import { applyPatch, type JsonObject, resolve } from './override-rules.js';
import { SETTINGS_SHAPE, type Settings, type SettingsPatch } from './settings-schema.js';

/**
 * The override rules (override-rules.ts) over the settings document: its shape, its types and
 * its defaults.
 */

export type { JsonObject, JsonValue } from './override-rules.js';

/** The sparse per-variant override as stored. Only `title` may hold `null`. */
export type Override = SettingsPatch;

/** The stored override after a PATCH body is merged into it. */
export function mergeOverride(stored: Override, patch: SettingsPatch): Override {
  return applyPatch(asJson(stored), asJson(patch), SETTINGS_SHAPE) as Override;
}

/** The effective settings of a variant: the site's settings with the override applied. */
export function effectiveSettings(site: Settings, override: Override): Settings {
  return resolve(asJson(site), asJson(override), SETTINGS_SHAPE) as unknown as Settings;
}

/** The complete settings a PUT body describes: given fields, defaults for the rest. */
export function settingsFromInput(input: SettingsPatch): Settings {
  return effectiveSettings(DEFAULT_SETTINGS, mergeOverride({}, input));
}

export function isEmptyOverride(override: Override): boolean {
  return Object.keys(override).length === 0;
}

function asJson(value: object): JsonObject {
  return value as JsonObject;
}

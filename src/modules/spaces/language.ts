import { DEFAULT_SETTINGS } from '../../settings/defaults.js';

/**
 * GitBook 0.202's `Space.language`. A space's language is the one set for it (createSpace,
 * updateSpaceById), when there is one. Otherwise what says which language a space is read in is
 * the `internationalization.locale` of the site-spaces that show it: the variant's override when
 * it sets one, else its site's settings, else the default (as getSiteSpaceCustomizationById
 * resolves it). The space then has a language when those locales agree on exactly one; a space no
 * site shows, or one shown in two languages, has none.
 */

/** The locales a site-space resolves from: its override's and its site's, as stored (or null). */
export interface ShownIn {
  overrideLocale: string | null;
  siteLocale: string | null;
}

export function effectiveLocale({ overrideLocale, siteLocale }: ShownIn): string {
  return overrideLocale ?? siteLocale ?? DEFAULT_SETTINGS.internationalization.locale;
}

/** The one locale all of `shownIn` resolve to, or undefined when there is none or several. */
export function spaceLanguage(shownIn: readonly ShownIn[]): string | undefined {
  const locales = new Set(shownIn.map(effectiveLocale));
  return locales.size === 1 ? [...locales][0] : undefined;
}

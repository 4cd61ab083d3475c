import type { Localized } from '../../../settings/settings-parts.js';

/**
 * The text of a setting in the variant's language (GitBook 0.202's `localizedTitle`,
 * `announcement.localizedMessage`): the translation for `locale` when there is a non-empty one,
 * else the default text. `locale` is the effective `internationalization.locale`, whose every
 * value is also a key of the localized maps.
 */
export function localized(
  text: string,
  translations: Localized | undefined,
  locale: string,
): string {
  const translation = translations?.[locale as keyof Localized];
  return translation === undefined || translation === '' ? text : translation;
}

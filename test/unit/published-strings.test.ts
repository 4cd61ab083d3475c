import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringsFor, TRANSLATED_LOCALES } from '../../src/modules/published/rendering/strings.js';
import { CustomizationLocale } from '../helpers/gitbook.js';

describe("the published site's words", () => {
  const english = stringsFor('en');

  test('English, French and German are complete: every word, none empty, none left in English', () => {
    assert.deepEqual([...TRANSLATED_LOCALES].sort(), ['de', 'en', 'fr']);
    for (const locale of ['fr', 'de']) {
      const words = stringsFor(locale);
      for (const [key, value] of Object.entries(english)) {
        const translated = words[key as keyof typeof words];
        assert.ok(translated.trim().length > 0, `${locale}.${key}`);
        assert.notEqual(translated, value, `${locale}.${key} is translated`);
      }
    }
  });

  test('every other locale GitBook allows falls back to English, as does an unknown one', () => {
    const locales = Object.values(CustomizationLocale as Record<string, string>);
    assert.ok(locales.includes('ja') && locales.includes('pt-br'), locales.join());
    for (const locale of [...locales.filter((l) => !TRANSLATED_LOCALES.includes(l)), 'xx']) {
      assert.deepEqual(stringsFor(locale), english, locale);
    }
  });
});

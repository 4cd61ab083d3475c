import { type Static, Type } from 'typebox';
import { Enum, nullable } from '../http/schema-helpers.js';
import { HEADER_ORIGIN_KEYWORD } from '../http-origin.js';
import { ContentRefSchema } from './content-ref.js';
import { Leaf, withInputForm } from './schema-kit.js';
import {
  CODE_THEMES,
  FONTS,
  MONOSPACE_FONTS,
  PAGE_ACTIONS,
  type PageAction,
  SOCIAL_PLATFORMS,
  TRANSLATION_LANGUAGES,
} from './vocabulary.js';

/**
 * The value types the settings object is made of (colors, URLs, fonts, links, localized texts,
 * social accounts, page actions), with GitBook 0.202's bounds. Where GitBook sets no bound,
 * Livery sets one (`UNBOUNDED_TEXT`, `MAX_LINKS`, id lengths): docs/customization.md lists them.
 */

export const COLOR_PATTERN = '^#(?:[0-9a-fA-F]{3}){1,2}$';
export const HTTP_URL_PATTERN = '^[hH][tT][tT][pP][sS]?://';
/** Livery's length bound for texts GitBook leaves unbounded (header item and group titles). */
export const UNBOUNDED_TEXT = 1024;
/** Livery's bound on link lists GitBook leaves unbounded (header, sub-links, footer groups). */
export const MAX_LINKS = 50;

export const Color = Type.String({
  pattern: COLOR_PATTERN,
  description: 'Hex color, #rgb or #rrggbb',
});
const urlOf = (description: string) =>
  Type.String({ format: 'uri', pattern: HTTP_URL_PATTERN, maxLength: 2048, description });
export const Url = urlOf('Absolute http(s) URL');
export const ThemedColor = Leaf(
  { light: Color, dark: Color },
  'A color for the light and the dark theme',
);
export const ThemedUrl = Leaf({ light: Url, dark: Url }, 'A URL for the light and the dark theme');

export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];
export type Localized = Partial<Record<TranslationLanguage, string>>;

/** GitBook's `LocalizedString*`: texts keyed by language, overriding the default text. */
export const LocalizedText = (maxLength: number) =>
  Type.Unsafe<Localized>({
    type: 'object',
    description: 'Texts keyed by language, used instead of the default text in that language',
    propertyNames: { type: 'string', enum: [...TRANSLATION_LANGUAGES] },
    additionalProperties: { type: 'string', maxLength },
  });

const ContentLinkTitle = Type.String({ maxLength: 64 });
export const ContentLink = Leaf({
  title: ContentLinkTitle,
  localizedTitle: Type.Optional(LocalizedText(64)),
  to: ContentRefSchema,
});

export const HeaderItem = Leaf({
  title: Type.String({ maxLength: UNBOUNDED_TEXT }),
  localizedTitle: Type.Optional(LocalizedText(UNBOUNDED_TEXT)),
  style: Type.Optional(Enum(['link', 'button-primary', 'button-secondary'])),
  to: Type.Unsafe<Static<typeof ContentRefSchema> | null>(nullable({ ...ContentRefSchema })),
  links: Type.Array(ContentLink, { maxItems: MAX_LINKS, description: 'Sub-links (a dropdown)' }),
  condition: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'Expression deciding whether visitors see the item; "" is no condition',
    }),
  ),
});

export const FooterGroup = Leaf({
  title: Type.String({ maxLength: UNBOUNDED_TEXT }),
  localizedTitle: Type.Optional(LocalizedText(UNBOUNDED_TEXT)),
  links: Type.Array(ContentLink, { maxItems: MAX_LINKS }),
});

export const Favicon = Type.Object(
  {
    icon: Type.Optional(ThemedUrl),
    emoji: Type.Optional(Type.String({ format: 'emoji', maxLength: 50 })),
  },
  {
    additionalProperties: false,
    maxProperties: 1,
    description: 'Either {icon: {light, dark}}, {emoji}, or {} for no favicon',
  },
);

// Fonts: one of GitBook's fonts by name, or a definition whose files the site loads. A file's
// origin goes into the page's Content-Security-Policy: its host must be one a CSP can name.
const FontSource = Leaf({
  url: Type.String({
    ...urlOf(
      'Absolute http(s) URL of the font file; its host a name or IPv4 address (letters, digits, hyphens, dots), as its origin goes into the Content-Security-Policy',
    ),
    [HEADER_ORIGIN_KEYWORD]: true,
  }),
  format: Type.Optional(Enum(['woff2', 'woff'])),
});
const FontFace = Leaf({
  weight: Type.Integer({ minimum: 1, maximum: 1000, description: '400 regular, 700 bold, …' }),
  sources: Type.Array(FontSource, { minItems: 1, maxItems: 10 }),
});
export const FontDefinition = Leaf(
  {
    id: Type.String({ maxLength: 256, description: 'Identifier of the font definition' }),
    custom: Type.Boolean({ description: 'Whether the font is a custom one' }),
    fontFamily: Type.String({ minLength: 1, maxLength: 50, description: 'CSS font-family name' }),
    fontFaces: Type.Array(FontFace, { minItems: 1, maxItems: 20 }),
  },
  'A font family with its @font-face declarations',
);
export type FontDefinition = Static<typeof FontDefinition>;

const fontOf = <const V extends readonly string[]>(names: V, description: string) =>
  Type.Unsafe<V[number] | FontDefinition>({
    anyOf: [Enum(names), FontDefinition],
    description,
  });
export const Font = fontOf(FONTS, 'One of the default fonts, or a font definition');
export const MonospaceFont = fontOf(MONOSPACE_FONTS, 'A default monospace font, or a definition');

const CodeTheme = Enum(CODE_THEMES);
export const ThemedCodeTheme = Leaf(
  { light: CodeTheme, dark: CodeTheme },
  'Code block theme for the light and the dark mode',
);

export const SocialAccount = Leaf({
  platform: Enum(SOCIAL_PLATFORMS),
  handle: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'Handle on the platform, without a leading @',
  }),
  display: Leaf({
    footer: Type.Boolean({ description: 'Shown in the footer' }),
    header: Type.Boolean({ description: 'Shown in the header' }),
  }),
});

const PageActionItems = Type.Array(Enum(PAGE_ACTIONS), {
  maxItems: PAGE_ACTIONS.length,
  description: 'The page menu, in order; an empty list turns the menu off',
});

/**
 * `pageActions`, stored and answered in both generations' forms at once: `items` (GitBook 0.202,
 * the truth) and the booleans of 0.130, derived from it. Bodies may send either form or both
 * (src/settings/canonical.ts turns them into this one).
 */
export const PageActions = withInputForm(
  Leaf({
    items: PageActionItems,
    externalAI: Type.Boolean({ description: 'GitBook 0.130: items include "external-ai"' }),
    markdown: Type.Boolean({ description: 'GitBook 0.130: items include "markdown"' }),
  }),
  {
    type: 'object',
    description:
      'Either {items} (GitBook 0.202) or {externalAI, markdown} (0.130), or both: items wins',
    properties: {
      items: { ...PageActionItems, maxItems: MAX_LINKS },
      externalAI: { type: 'boolean' },
      markdown: { type: 'boolean' },
    },
    additionalProperties: false,
  },
);
export type PageActions = Static<typeof PageActions>;
/** What a body may carry as `pageActions`. */
export interface PageActionsInput {
  items?: PageAction[];
  externalAI?: boolean;
  markdown?: boolean;
}

import { type Static, Type } from 'typebox';
import { Enum } from '../http/schema-helpers.js';
import { ContentRefSchema } from './content-ref.js';
import { Group, Leaf, patchSchemaOf, shapeOf } from './schema-kit.js';
import {
  ContentLink,
  Favicon,
  Font,
  FooterGroup,
  HeaderItem,
  LocalizedText,
  MAX_LINKS,
  MonospaceFont,
  PageActions,
  type PageActionsInput,
  SocialAccount,
  ThemedCodeTheme,
  ThemedColor,
  ThemedUrl,
  Url,
} from './settings-parts.js';
import { LOCALES } from './vocabulary.js';

export { COLOR_PATTERN, HTTP_URL_PATTERN } from './settings-parts.js';

/**
 * The site customization settings object: the fields of the specification, with GitBook's
 * enumerations and limits, plus every field of GitBook 0.130 and 0.202 that the specification
 * does not list, so that a body typed by either official client is accepted as is, and an answer
 * is valid under 0.202 (and under 0.130 wherever the two agree). See docs/customization.md.
 */

const Switch = (description: string) => Group({ enabled: Type.Boolean({ description }) });

export const SettingsSchema = Group({
  title: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 128,
      description: 'Title of the published site; the content title is used when unset',
    }),
  ),
  localizedTitle: Type.Optional(LocalizedText(128)),
  styling: Group({
    theme: Enum(['clean', 'muted', 'bold', 'gradient']),
    primaryColor: ThemedColor,
    tint: Type.Optional(Leaf({ color: ThemedColor }, 'Tint of the UI; the primary color if unset')),
    infoColor: ThemedColor,
    successColor: ThemedColor,
    warningColor: ThemedColor,
    dangerColor: ThemedColor,
    corners: Enum(['straight', 'rounded', 'circular']),
    depth: Enum(['subtle', 'flat']),
    links: Enum(['default', 'accent']),
    font: Font,
    headingFont: Type.Optional(Font),
    monospaceFont: MonospaceFont,
    background: Enum(['plain', 'match'], 'Deprecated by GitBook in favour of tint'),
    icons: Enum(['regular', 'solid', 'duotone', 'light', 'thin']),
    codeTheme: Group({ default: ThemedCodeTheme, openapi: ThemedCodeTheme }),
    sidebar: Group({
      background: Enum(['default', 'filled']),
      list: Enum(['default', 'pill', 'line']),
    }),
    search: Enum(['prominent', 'subtle']),
  }),
  internationalization: Group({ locale: Enum(LOCALES, 'Language of the UI strings') }),
  favicon: Favicon,
  header: Group({
    preset: Enum(['default', 'bold', 'contrast', 'custom', 'none'], 'Deprecated by GitBook'),
    logo: Type.Optional(ThemedUrl),
    primaryLink: Type.Optional(ContentRefSchema),
    backgroundColor: Type.Optional(ThemedColor),
    linkColor: Type.Optional(ThemedColor),
    links: Type.Array(HeaderItem, { maxItems: MAX_LINKS }),
  }),
  footer: Group({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(FooterGroup, { maxItems: MAX_LINKS }),
    copyright: Type.Optional(Type.String({ maxLength: 512 })),
  }),
  announcement: Type.Optional(
    Group(
      {
        enabled: Type.Boolean(),
        message: Type.String({ minLength: 2, maxLength: 128 }),
        localizedMessage: Type.Optional(LocalizedText(128)),
        link: Type.Optional(ContentLink),
        style: Enum(['info', 'warning', 'danger', 'success']),
      },
      { complete: true, description: 'Banner at the top of every page' },
    ),
  ),
  themes: Group({
    default: Enum(['light', 'dark', 'system']),
    toggeable: Type.Boolean({ description: 'Whether visitors can switch between light and dark' }),
  }),
  pdf: Switch('PDF export'),
  feedback: Switch('Page feedback widget'),
  aiSearch: Switch('AI search'),
  ai: Group({
    mode: Enum(['none', 'search', 'assistant'], 'AI features of the site'),
    greeting: Type.Optional(Type.String({ maxLength: 256 })),
    localizedGreeting: Type.Optional(LocalizedText(128)),
    suggestions: Type.Optional(
      Type.Array(Type.String({ minLength: 3, maxLength: 64 }), { maxItems: 5 }),
    ),
    instructions: Type.Optional(
      Type.String({ maxLength: 10_000, description: 'For the assistant; never published' }),
    ),
    pageLinkSummaries: Switch('Summaries of linked pages'),
  }),
  advancedCustomization: Switch('Advanced customization'),
  git: Group({
    showEditLink: Type.Boolean({ description: 'Link to edit the page on the git host' }),
  }),
  pageActions: PageActions,
  externalLinks: Group({ target: Enum(['self', 'blank']) }),
  pagination: Switch('Previous/next links'),
  trademark: Switch('"Powered by" trademark'),
  privacyPolicy: Group({ url: Type.Optional(Url) }),
  socialPreview: Group({ url: Type.Optional(Url) }),
  socialAccounts: Type.Array(SocialAccount, { maxItems: 10 }),
  insights: Group({ trackingCookie: Type.Boolean() }),
});

export type Settings = Static<typeof SettingsSchema>;

/** Which fields merge field by field (see schema-kit). */
export const SETTINGS_SHAPE = shapeOf(SettingsSchema);

/** Fields a site-space override may not carry, with the reason given to the client. */
const SITE_LEVEL_ONLY =
  'This setting exists at the site level only and cannot be overridden per site-space';
export const SITE_LEVEL_ONLY_FIELDS = ['ai', 'advancedCustomization', 'insights'] as const;

/** Body of PUT: any subset of the settings; absent or `null` fields take their defaults. */
export const SettingsInputSchema = Type.Unsafe<SettingsPatch>(patchSchemaOf(SettingsSchema));

/** Body of PATCH on a site-space: any subset; `null` removes that field from the override. */
export const OverridePatchSchema = Type.Unsafe<SettingsPatch>(
  patchSchemaOf(
    SettingsSchema,
    Object.fromEntries(SITE_LEVEL_ONLY_FIELDS.map((field) => [field, SITE_LEVEL_ONLY])),
  ),
);

/**
 * A partial settings object where any field may be `null`. Leaf objects are typed loosely here;
 * the schema enforces that they are complete.
 */
export type SettingsPatch = DeepPatch<Settings>;
type DeepPatch<T> = {
  [K in keyof T]?: (K extends 'pageActions' ? PageActionsInput : PatchOf<NonNullable<T[K]>>) | null;
};
type PatchOf<V> = V extends readonly unknown[] ? V : V extends object ? DeepPatch<V> : V;

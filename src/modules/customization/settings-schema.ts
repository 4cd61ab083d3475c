import { type Static, Type } from 'typebox';
import { ContentRefSchema } from './content-ref.js';
import { Enum, Group, Leaf, nullable, patchSchemaOf, shapeOf } from './schema-kit.js';

/**
 * The site customization settings object: the fields of the specification, with GitBook 0.130's
 * enumerations and limits, plus the 0.130 fields the specification does not list (`styling.depth`,
 * `styling.monospaceFont`, `styling.background`, `header.preset`, `ai.mode`, `pageActions`,
 * `externalLinks`, `header.*Item.condition`) so that a body typed by the official client is
 * accepted as is. See docs/customization.md.
 */

export const COLOR_PATTERN = '^#(?:[0-9a-fA-F]{3}){1,2}$';
export const HTTP_URL_PATTERN = '^[hH][tT][tT][pP][sS]?://';

const Color = Type.String({ pattern: COLOR_PATTERN, description: 'Hex color, #rgb or #rrggbb' });
const Url = Type.String({
  format: 'uri',
  pattern: HTTP_URL_PATTERN,
  maxLength: 2048,
  description: 'Absolute http(s) URL',
});
const ThemedColor = Leaf({ light: Color, dark: Color }, 'A color for the light and the dark theme');
const ThemedUrl = Leaf({ light: Url, dark: Url }, 'A URL for the light and the dark theme');
const LinkTitle = Type.String({ maxLength: 64 });

const ContentLink = Leaf({ title: LinkTitle, to: ContentRefSchema });

const HeaderItem = Leaf({
  title: LinkTitle,
  style: Type.Optional(Enum(['link', 'button-primary', 'button-secondary'])),
  to: Type.Unsafe<Static<typeof ContentRefSchema> | null>(nullable({ ...ContentRefSchema })),
  links: Type.Array(ContentLink, { maxItems: 50, description: 'Sub-links (a dropdown)' }),
  condition: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
});

const FooterGroup = Leaf({
  title: LinkTitle,
  links: Type.Array(ContentLink, { maxItems: 50 }),
});

const Favicon = Type.Object(
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

const Switch = (description: string) => Group({ enabled: Type.Boolean({ description }) });

const FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;

const MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;

const LOCALES = ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br'] as const;

export const SettingsSchema = Group({
  title: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 128,
      description: 'Title of the published site; the content title is used when unset',
    }),
  ),
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
    font: Enum(FONTS),
    monospaceFont: Enum(MONOSPACE_FONTS),
    background: Enum(['plain', 'match'], 'Deprecated by GitBook in favour of tint'),
    icons: Enum(['regular', 'solid', 'duotone', 'light', 'thin']),
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
    backgroundColor: Type.Optional(ThemedColor),
    linkColor: Type.Optional(ThemedColor),
    links: Type.Array(HeaderItem, { maxItems: 50 }),
  }),
  footer: Group({
    logo: Type.Optional(ThemedUrl),
    groups: Type.Array(FooterGroup, { maxItems: 50 }),
    copyright: Type.Optional(Type.String({ maxLength: 512 })),
  }),
  announcement: Type.Optional(
    Group(
      {
        enabled: Type.Boolean(),
        message: Type.String({ minLength: 2, maxLength: 128 }),
        link: Type.Optional(ContentLink),
        style: Enum(['info', 'warning', 'danger', 'success']),
      },
      { complete: true, description: 'Banner at the top of every page' },
    ),
  ),
  themes: Group({
    default: Enum(['light', 'dark']),
    toggeable: Type.Boolean({ description: 'Whether visitors can switch between light and dark' }),
  }),
  pdf: Switch('PDF export'),
  feedback: Switch('Page feedback widget'),
  aiSearch: Switch('AI search'),
  ai: Group({
    mode: Enum(['none', 'search', 'assistant'], 'GitBook 0.130 AI mode'),
    pageLinkSummaries: Switch('Summaries of linked pages'),
  }),
  advancedCustomization: Switch('Advanced customization'),
  git: Group({
    showEditLink: Type.Boolean({ description: 'Link to edit the page on the git host' }),
  }),
  pageActions: Group({ externalAI: Type.Boolean(), markdown: Type.Boolean() }),
  externalLinks: Group({ target: Enum(['self', 'blank']) }),
  pagination: Switch('Previous/next links'),
  trademark: Switch('"Powered by" trademark'),
  privacyPolicy: Group({ url: Type.Optional(Url) }),
  socialPreview: Group({ url: Type.Optional(Url) }),
  insights: Group({ trackingCookie: Type.Boolean() }),
});

export type Settings = Static<typeof SettingsSchema>;

/** Which fields merge field by field (see schema-kit). */
export const SETTINGS_SHAPE = shapeOf(SettingsSchema);

/** Fields a site-space override may not carry, with the reason given to the client. */
const SITE_LEVEL_ONLY =
  'This setting exists at the site level only and cannot be overridden per site-space';
const SITE_LEVEL_ONLY_FIELDS = ['ai', 'advancedCustomization', 'insights'] as const;

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
type DeepPatch<T> = { [K in keyof T]?: PatchOf<NonNullable<T[K]>> | null };
type PatchOf<V> = V extends readonly unknown[] ? V : V extends object ? DeepPatch<V> : V;

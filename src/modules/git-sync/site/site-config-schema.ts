import { type TSchema, Type } from 'typebox';
import { Enum, OrNull } from '../../../http/schema-helpers.js';
import { LocalizedText, Url } from '../../../settings/settings-parts.js';
import { TRANSLATION_LANGUAGES } from '../../../settings/vocabulary.js';

/**
 * GitBook 0.202's `GitSyncSiteConfig` (the site's `docs.yaml`), one schema per node type.
 *
 * Each node is validated on its own (site-config.ts walks the tree), so `children` is only "an
 * array" here: which node may sit under which is a rule of its own (site-rules.ts), reported
 * with the rule's name and the node's key rather than as a failed `oneOf`. Every object has
 * `additionalProperties: false`, as in GitBook's schema.
 *
 * Where Livery's site API is stricter than GitBook's schema (a path is one URL segment; a
 * space's title is bounded), the file gets the API's bound, so that a file accepted here never
 * fails half-way through the import.
 */

const Key = Type.String({ minLength: 1, maxLength: 128, description: 'Git Sync key' });
const Icon = Type.String({ minLength: 1, maxLength: 50, description: 'Name of the icon' });
const Condition = Type.String({ maxLength: 1024, description: 'Expression; "" is no condition' });
/** One URL path segment, as Livery's site-space and section paths are. */
const Path = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._~-]+$',
  description: 'One URL path segment (letters, digits, ".", "_", "~", "-")',
});
const Children = Type.Array(Type.Unknown());
const Flag = Type.Boolean();
const Description = Type.String({ maxLength: 256 });

const node = (type: string, properties: Record<string, TSchema>, required: string[]) =>
  Type.Object(
    { type: Type.Literal(type), key: Key, ...properties },
    {
      additionalProperties: false,
      // TypeBox marks optionals itself; `required` is listed for the reader.
      description: `docs.yaml ${type} node; required: type, key, ${required.join(', ')}`,
    },
  );

export const SectionGroupNodeSchema = node(
  'section-group',
  {
    title: Type.String({ minLength: 1, maxLength: 100 }),
    localizedTitle: Type.Optional(LocalizedText(128)),
    icon: Type.Optional(Icon),
    draft: Type.Optional(Flag),
    children: Type.Optional(Children),
  },
  ['title'],
);

export const SectionNodeSchema = node(
  'section',
  {
    title: Type.String({ minLength: 2, maxLength: 128 }),
    localizedTitle: Type.Optional(LocalizedText(128)),
    description: Type.Optional(Description),
    localizedDescription: Type.Optional(LocalizedText(256)),
    icon: Type.Optional(Icon),
    default: Type.Optional(Flag),
    path: Path,
    condition: Type.Optional(Condition),
    children: Type.Optional(Children),
  },
  ['title', 'path'],
);

export const SpaceNodeSchema = node(
  'space',
  {
    // GitBook sets no maximum; Livery's variant titles hold 128 characters at most.
    title: Type.String({ minLength: 1, maxLength: 128 }),
    localizedTitle: Type.Optional(LocalizedText(128)),
    path: Path,
    default: Type.Optional(Flag),
    hidden: Type.Optional(Flag),
    draft: Type.Optional(Flag),
    condition: Type.Optional(Condition),
    content: Type.Object(
      {
        directory: OrNull(Type.String({ minLength: 1, maxLength: 1024 })),
        language: Type.Optional(Enum(TRANSLATION_LANGUAGES)),
      },
      { additionalProperties: false },
    ),
  },
  ['title', 'path', 'content'],
);

export const ExternalLinkNodeSchema = node(
  'external-link',
  {
    title: Type.String({ minLength: 2, maxLength: 128 }),
    localizedTitle: Type.Optional(LocalizedText(128)),
    description: Type.Optional(Description),
    localizedDescription: Type.Optional(LocalizedText(256)),
    icon: Type.Optional(Icon),
    url: Url,
    draft: Type.Optional(Flag),
    condition: Type.Optional(Condition),
  },
  ['title', 'url'],
);

export const NODE_SCHEMAS = {
  'section-group': SectionGroupNodeSchema,
  section: SectionNodeSchema,
  space: SpaceNodeSchema,
  'external-link': ExternalLinkNodeSchema,
} as const;

export type NodeType = keyof typeof NODE_SCHEMAS;
export const NODE_TYPES = Object.keys(NODE_SCHEMAS) as NodeType[];

/** The file around the structure (its nodes are checked one by one). */
export const SiteConfigSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ format: 'uri' })),
    version: Type.Optional(Type.Literal(1)),
    site: Type.Object(
      {
        // GitBook: at least 1 character; Livery's site titles have 2 to 128.
        title: Type.String({ minLength: 2, maxLength: 128 }),
        structure: Children,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'GitSyncSiteConfig' },
);

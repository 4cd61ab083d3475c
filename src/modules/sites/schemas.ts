import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import { GitBookShapes, unsupportedField } from '../../unsupported-inputs.js';
import { GitSyncStateSchema } from '../git-sync/schemas.js';
import { SpaceSchema } from '../spaces/schemas.js';
import { SiteVisibilitySchema } from '../spaces/site-visibility.js';
import { SITE_HOSTNAME_PATTERN } from './hostname.js';
import { SITE_INPUTS } from './unsupported.js';

const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
const Uri = Type.String({ format: 'uri' });
const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site' });
/** One URL path segment: the site's published URL is PUBLIC_URL + basename. */
const SiteBasename = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(?!site_)[A-Za-z0-9][A-Za-z0-9._-]*$',
  description:
    'Basename for the site, e.g. api: one URL path segment of letters, digits, ".", "_" and "-", not starting with "site_" (ids do); unique in this Livery',
});
const ProxyOrigin = Type.String({
  maxLength: 512,
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
  description: 'Proxy URL for the site, e.g. company.com/docs',
});
/** One URL path segment: a variant is served at the site's URL + `/` + path. */
const SiteSpacePath = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._~-]+$',
  description:
    'Path to the space on the site: one URL path segment (letters, digits, ".", "_", "~", "-"), unique within the site',
});
const Condition = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: "Expression deciding whether the site-space is shown to the site's visitor",
});

const can = (description: string) => Type.Boolean({ description });

/** What the caller may do with the site, from their role (access/record-permissions.ts). */
const SitePermissionsSchema = Type.Object({
  view: can('Can the user view the site'),
  access: can('Can the user access the site (Livery has no separate app: as view)'),
  edit: can("Can the user edit the content of the site's spaces through change requests"),
  create: can('Can the user make drafts, publish the site and manage its site-spaces'),
  admin: can('Can the user manage the site, its settings, and publish it'),
  installIntegration: can('Livery has no integrations: always false'),
  viewAdaptiveSchema: can('Livery has no adaptive content: always false'),
  editAdaptiveSchema: can('Livery has no adaptive content: always false'),
});

export const SiteSchema = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String({ description: 'Unique identifier of the site' }),
    type: Type.String({ description: 'The type of the site' }),
    appliedType: Type.String({
      description: 'The type in effect: Livery never freezes or downgrades a site, so its type',
    }),
    title: SiteTitle,
    basename: Type.Optional(Type.String()),
    hostname: Type.Optional(
      Type.String({
        description:
          'Custom hostname: the site is also served at the root of https://{hostname}/ behind a reverse proxy (docs/sites.md, "Custom hostnames")',
      }),
    ),
    proxy: Type.Optional(
      Type.Object({
        origin: Type.String(),
        target: Type.String({ description: 'Where requests at the origin are proxied to' }),
      }),
    ),
    visibility: Type.String(),
    defaultLevel: Type.Literal('inherit', {
      description: 'Members reach the site through their organization role: always inherit',
    }),
    permissions: SitePermissionsSchema,
    published: Type.Boolean({ description: 'Whether the site is live' }),
    siteSpaces: Type.Number({ description: 'Number of site-spaces (variants) of the site' }),
    gitSync: Type.Optional(GitSyncStateSchema),
    createdAt: Type.String({ format: 'date-time' }),
    agentsContext: Type.String(),
    features: Type.Array(
      Type.Object({ id: Type.String(), plan: Type.String(), frozen: Type.Boolean() }),
    ),
    urls: Type.Object({
      location: Uri,
      app: Uri,
      published: Type.Optional(
        Type.String({ format: 'uri', description: 'Only while the site is published' }),
      ),
      preview: Type.String({
        format: 'uri',
        description:
          "The site's address, which a member opens with their API token (Authorization: Bearer) whether the site is published or not",
      }),
    }),
  },
  { title: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

export const CreateSiteSchema = Type.Object(
  {
    type: Type.Optional(Enum(SITE_TYPES, 'The type of the site, defaults to basic')),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibilitySchema),
    spaces: Type.Optional(
      Type.Unsafe<string[] | 'empty' | 'sample'>({
        description:
          'IDs of spaces of the organization to add as site-spaces (the first becomes the default), or "empty" to create a new space for the site',
        anyOf: [
          { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 100 },
          { type: 'string', enum: ['empty', 'sample'] },
        ],
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateSite' },
);
export type CreateSite = Static<typeof CreateSiteSchema>;

export const UpdateSiteSchema = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibilitySchema),
    basename: Type.Optional(SiteBasename),
    agentsContext: Type.Optional(Enum(['excluded', 'included'])),
    defaultSiteSpace: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'ID of a site-space of this site to make the default (served at the root)',
      }),
    ),
    proxy: Type.Optional(OrNull(ProxyOrigin)),
    hostname: Type.Optional(
      OrNull(
        Type.String({
          maxLength: 512,
          pattern: SITE_HOSTNAME_PATTERN,
          description:
            'Livery extension (GitBook sets it in its app): the custom hostname to serve the site at (e.g. docs.acme.com; case-insensitive), or null to remove it. A hostname another site holds, in any organization, is a 409',
        }),
      ),
    ),
    defaultLevel: unsupportedField(SITE_INPUTS.defaultLevel, GitBookShapes.defaultLevel),
    adaptiveContent: unsupportedField(
      SITE_INPUTS.adaptiveContent,
      Type.Object({ enabled: Type.Boolean() }),
    ),
    defaultSiteSection: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'ID of a section of this site to make the default (served at the root); not a draft',
      }),
    ),
    styleguide: unsupportedField(SITE_INPUTS.styleguide, GitBookShapes.nullableString),
  },
  { additionalProperties: false, title: 'UpdateSite' },
);
export type UpdateSite = Static<typeof UpdateSiteSchema>;

export const SiteSpaceSchema = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String({ description: 'Unique identifier of the site-space' }),
    path: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Path to the space on the site',
    }),
    section: Type.Optional(
      Type.String({ description: 'ID of the section the site-space belongs to (sectioned sites)' }),
    ),
    space: SpaceSchema,
    localizedTitle: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: { type: 'string' },
        description: "The variant's title by language (set by a Git Sync docs.yaml)",
      }),
    ),
    title: Type.String({
      description:
        "The variant's title: its own (addSpaceToSite's title), else its space's; the published site's variant switcher shows it",
    }),
    default: Type.Boolean({ description: 'Whether this is the default space for the site' }),
    draft: Type.Boolean({
      description: 'Whether the site-space is a draft, left out of the published site',
    }),
    condition: Type.Optional(
      Type.String({
        description:
          'A condition an earlier Livery stored without evaluating it; Livery has no conditional site-spaces (updateSiteSpaceById condition: null removes it)',
      }),
    ),
    hidden: Type.Boolean({
      description: "Left out of the published site's variant switcher; still served at its address",
    }),
    urls: Type.Object({
      location: Uri,
      published: Type.Optional(
        Type.String({ format: 'uri', description: 'Only while the site is published' }),
      ),
    }),
  },
  { title: 'SiteSpace' },
);
export type SiteSpace = Static<typeof SiteSpaceSchema>;

export const AddSpaceToSiteSchema = Type.Object(
  {
    spaceId: OrNull(
      Type.String({
        minLength: 1,
        description:
          'ID of a space of the organization, or null to create a new space (titled by title, else Untitled)',
      }),
    ),
    title: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 128,
        description:
          "The variant's own title (its path is derived from it); with spaceId null also the new space's title (its first 50 characters)",
      }),
    ),
    draft: Type.Optional(
      Type.Boolean({
        description:
          "true: a draft, left out of the published site (never the site's or a section's default)",
      }),
    ),
    pageId: unsupportedField(SITE_INPUTS.pageId, GitBookShapes.nullableString),
    sectionId: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'The section to add it to: required in a site with sections, refused in a site without',
      }),
    ),
    template: unsupportedField(SITE_INPUTS.template, GitBookShapes.object),
  },
  { additionalProperties: false, title: 'AddSpaceToSite' },
);
export type AddSpaceToSite = Static<typeof AddSpaceToSiteSchema>;

export const UpdateSiteSpaceSchema = Type.Object(
  {
    path: Type.Optional(SiteSpacePath),
    spaceId: Type.Optional(
      Type.String({ minLength: 1, description: 'A space of the organization to show instead' }),
    ),
    hidden: Type.Optional(
      Type.Boolean({
        description:
          "true: left out of the published site's variant switcher (still served at its address); false: shown again",
      }),
    ),
    condition: unsupportedField(SITE_INPUTS.condition, OrNull(Condition)),
    draft: Type.Optional(
      Type.Boolean({
        description:
          "true: a draft, left out of the published site (not the site's or a section's default); false: live",
      }),
    ),
    pageId: unsupportedField(SITE_INPUTS.pageId, GitBookShapes.nullableString),
  },
  { additionalProperties: false, title: 'UpdateSiteSpace' },
);
export type UpdateSiteSpace = Static<typeof UpdateSiteSpaceSchema>;

export const ListSitesQuery = Type.Object({
  space: Type.Optional(Type.String({ description: 'Only sites with a site-space of this space' })),
  title: Type.Optional(Type.String({ description: 'Only sites whose title contains this text' })),
  published: Type.Optional(Type.Boolean({ description: 'Only published (or unpublished) sites' })),
  type: Type.Optional(Type.Array(Enum(SITE_TYPES), { description: 'Only sites of these types' })),
});
export type SiteFilters = Static<typeof ListSitesQuery>;

import { type Static, Type } from 'typebox';
import { Enum } from '../customization/schema-kit.js';
import { SpaceSchema } from '../spaces/schemas.js';

const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;

const Uri = Type.String({ format: 'uri' });
const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site' });

export const SiteSchema = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String({ description: 'Unique identifier of the site' }),
    type: Type.String({ description: 'The type of the site' }),
    title: SiteTitle,
    basename: Type.Optional(Type.String()),
    visibility: Type.String(),
    published: Type.Boolean({ description: 'Whether the site is live' }),
    siteSpaces: Type.Number({ description: 'Number of site-spaces (variants) of the site' }),
    createdAt: Type.String({ format: 'date-time' }),
    agentsContext: Type.String(),
    features: Type.Array(
      Type.Object({ id: Type.String(), plan: Type.String(), frozen: Type.Boolean() }),
    ),
    urls: Type.Object({
      location: Uri,
      app: Uri,
      published: Type.Optional(Uri),
    }),
  },
  { title: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

export const CreateSiteSchema = Type.Object(
  {
    type: Type.Optional(Enum(SITE_TYPES, 'The type of the site, defaults to basic')),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(Enum(SITE_VISIBILITIES, 'Defaults to public')),
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

export const SiteSpaceSchema = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String({ description: 'Unique identifier of the site-space' }),
    path: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Path to the space on the site',
    }),
    space: SpaceSchema,
    title: Type.String(),
    default: Type.Boolean({ description: 'Whether this is the default space for the site' }),
    urls: Type.Object({ location: Uri, published: Type.Optional(Uri) }),
  },
  { title: 'SiteSpace' },
);
export type SiteSpace = Static<typeof SiteSpaceSchema>;

export const AddSpaceToSiteSchema = Type.Object(
  { spaceId: Type.String({ minLength: 1, description: 'ID of the space' }) },
  { additionalProperties: false, title: 'AddSpaceToSite' },
);

export const ListSitesQuery = Type.Object({
  space: Type.Optional(Type.String({ description: 'Only sites with a site-space of this space' })),
  title: Type.Optional(Type.String({ description: 'Only sites whose title contains this text' })),
  published: Type.Optional(Type.Boolean({ description: 'Only published (or unpublished) sites' })),
  type: Type.Optional(Type.Array(Enum(SITE_TYPES), { description: 'Only sites of these types' })),
});
export type SiteFilters = Static<typeof ListSitesQuery>;

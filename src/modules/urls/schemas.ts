import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';

export const LookupBodySchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'A published address: `{PUBLIC_URL}{site}/[{shareKey}/][{variantPath}/][{pagePath}]` (docs/renderer.md)',
    }),
    redirectOnError: Type.Optional(
      Type.Boolean({
        description:
          "When the visitor's token is refused, answer a redirect to the site's sign-in address instead of 401",
      }),
    ),
    visitor: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(Enum(['human', 'agent'] as const, 'Who visits')),
          jwtToken: Type.Optional(
            Type.String({
              maxLength: 8192,
              description: "A visitor token, signed with the site's visitor-authentication key",
            }),
          ),
          unsignedClaims: Type.Optional(
            Type.Record(Type.String(), Type.Unknown(), {
              description: 'Accepted and ignored: Livery adapts no content to visitors',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    cacheBust: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          "Sent by GitBook's renderer to get around GitBook's own cache; ignored (Livery does not cache this answer)",
      }),
    ),
  },
  { additionalProperties: false, title: 'ResolvePublishedContentByUrl' },
);
export type LookupBody = Static<typeof LookupBodySchema>;

/** getPublishedContentByUrl: the deprecated GET form of the same lookup, in its query. */
export const LookupQuerySchema = Type.Object(
  {
    url: LookupBodySchema.properties.url,
    visitorAuthToken: Type.Optional(
      Type.String({
        maxLength: 8192,
        description: "A visitor token, signed with the site's visitor-authentication key",
      }),
    ),
    redirectOnError: LookupBodySchema.properties.redirectOnError,
  },
  { additionalProperties: false },
);

const content = Type.Object(
  {
    site: Type.String(),
    siteSection: Type.Optional(
      Type.String({ description: 'The section of the site-space, in a site with sections' }),
    ),
    siteSpace: Type.String(),
    space: Type.String(),
    organization: Type.String(),
    pathname: Type.String({ description: 'The page path after basePath' }),
    basePath: Type.String({ description: "The variant's root path in the URL" }),
    siteBasePath: Type.String({ description: "The site's root path in the URL" }),
    canonicalUrl: Type.String(),
    complete: Type.Boolean({
      description: 'No more site segments (share key, variant) can follow in the URL',
    }),
    apiToken: Type.String({
      description:
        'A site token: public, read-only, for this published site only, valid until the end of the hour plus 5 minutes',
    }),
    shareKey: Type.Optional(Type.String()),
  },
  { title: 'PublishedSiteContent' },
);
const redirect = Type.Object(
  {
    target: Enum(['content', 'external'] as const),
    site: Type.Optional(Type.String()),
    redirect: Type.String(),
  },
  { title: 'PublishedContentRedirect' },
);
export const LookupSchema = Type.Union([content, redirect], {
  title: 'PublishedSiteContentLookup',
});

import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../customization/schema-kit.js';

const FallbackUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  description:
    'An absolute http(s) URL visitors are sent to when their token is missing or invalid',
});

export const PublishingAuthSchema = Type.Object(
  {
    object: Type.Literal('publishing-auth'),
    backend: Type.String({
      description: 'custom: your backend signs visitor JWTs with privateKey',
    }),
    privateKey: Type.String({
      description:
        'Secret that signs visitor JWTs (HS256, audience = the site id, exp required). Regenerating it invalidates every token signed with the old one at once.',
    }),
    fallbackURL: Type.Optional(Type.String({ format: 'uri' })),
  },
  { title: 'SitePublishingAuth' },
);
export type PublishingAuth = Static<typeof PublishingAuthSchema>;

export const UpdatePublishingAuthSchema = Type.Object(
  {
    backend: Enum(
      ['custom', 'integration'],
      'custom (Livery has no integrations: "integration" is refused with a 400)',
    ),
    fallbackURL: Type.Optional(OrNull(FallbackUrl)),
  },
  { additionalProperties: false, title: 'SitePublishingAuthUpdate' },
);
export type UpdatePublishingAuth = Static<typeof UpdatePublishingAuthSchema>;

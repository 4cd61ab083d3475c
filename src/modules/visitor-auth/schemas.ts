import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import type { UnsupportedInput } from '../../unsupported-inputs.js';

const VisitorUrl = (description: string) =>
  Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description });

const FallbackUrl = VisitorUrl(
  'An absolute http(s) URL visitors are sent to when their token is missing or invalid',
);
const LogoutUrl = VisitorUrl(
  'An absolute http(s) URL of your backend that signs visitors out there (GitBook: "log visitors out from the upstream custom auth backend"); Livery stores and answers it',
);

/** GitBook's other backend; Livery has no integrations (src/unsupported-inputs.ts). */
export const BACKEND_INPUT: UnsupportedInput = {
  field: 'backend',
  accepted: ['custom'],
  reason: 'Livery has no integrations, so "integration" cannot authenticate visitors',
};

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
    logoutURL: Type.Optional(Type.String({ format: 'uri' })),
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
    logoutURL: Type.Optional(OrNull(LogoutUrl)),
  },
  { additionalProperties: false, title: 'SitePublishingAuthUpdate' },
);
export type UpdatePublishingAuth = Static<typeof UpdatePublishingAuthSchema>;

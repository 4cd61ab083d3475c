import { type Static, Type } from 'typebox';

const ShareLinkName = Type.String({
  minLength: 0,
  maxLength: 50,
  description: 'Name of the share link',
});

export const ShareLinkSchema = Type.Object(
  {
    object: Type.Literal('share-link'),
    id: Type.String({ description: 'Unique identifier for the share-link' }),
    createdAt: Type.String({ format: 'date-time' }),
    name: Type.Optional(ShareLinkName),
    active: Type.Optional(Type.Boolean()),
    urls: Type.Object(
      {
        published: Type.Optional(
          Type.String({
            format: 'uri',
            description:
              "The site's published URL with the link's secret key (`?share=<key>`). Livery stores only a hash of the key, so it is present only in the creation response.",
          }),
        ),
      },
      {
        description:
          'URLs of the share link. `published` is in the creation response only: Livery keeps only a hash of the secret key (as for API tokens), so listings and updates answer `urls: {}`. A lost key is replaced by creating a new link.',
      },
    ),
  },
  { title: 'ShareLink' },
);
export type ShareLink = Static<typeof ShareLinkSchema>;

export const CreateShareLinkSchema = Type.Object(
  { name: ShareLinkName },
  { additionalProperties: false, title: 'CreateShareLink' },
);

export const UpdateShareLinkSchema = Type.Object(
  {
    active: Type.Optional(
      Type.Boolean({ description: 'false: the key stops opening the site at once' }),
    ),
    name: Type.Optional(ShareLinkName),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateShareLink' },
);
export type UpdateShareLink = Static<typeof UpdateShareLinkSchema>;

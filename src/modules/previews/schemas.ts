import { type Static, Type } from 'typebox';
import { SpaceParams } from '../../http/schemas.js';

export const PreviewLinkSchema = Type.Object(
  {
    id: Type.String({ description: 'The unique id of the preview link' }),
    url: Type.String({
      format: 'uri',
      description:
        "`{PUBLIC_URL}@livery/preview/{id}.{signature}/`: anyone holding it reads the change request's content as the published site shows the space, without an account, until the link is closed or the change request merged or archived",
    }),
    label: Type.Union([Type.String(), Type.Null()], {
      description: 'What the link is for (e.g. the Git branch it previews), or null',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'ChangeRequestPreviewLink' },
);
export type PreviewLinkBody = Static<typeof PreviewLinkSchema>;

export const CreatePreviewLinkSchema = Type.Object(
  {
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'What the link is for; kept only when a new link is made (an open link is answered as it is)',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateChangeRequestPreviewLink' },
);

export const PreviewParams = Type.Object({
  ...SpaceParams.properties,
  changeRequestId: Type.String({
    description: 'The unique ID of the change request or its number identifier in the space',
  }),
});

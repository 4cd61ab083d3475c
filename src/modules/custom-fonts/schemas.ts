import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';

/**
 * GitBook 0.202's custom-fonts shapes (docs/customization.md, "Custom fonts"): the font as
 * GitBook's CustomizationFontDefinition (the very object a site's `styling.font` takes), and the
 * create and update bodies, whose faces name uploaded files by their storage key.
 */

/** Livery's bound on a font's faces: the settings' own (settings-parts.ts FontDefinition). */
export const MAX_FACES = 20;

const FontFamily = Type.String({
  minLength: 1,
  maxLength: 50,
  description: 'The font-family name used in CSS (e.g. "Open Sans")',
});
const FontWeight = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'Numeric font weight (400 regular, 500 medium, 700 bold, 900 black)',
});
const StorageFileKey = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'The key of a file uploaded with generateStorageUploadURL (kind customization_font)',
});

const FontSourceSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'The font file' }),
    format: Type.Optional(Enum(['woff2', 'woff'])),
  },
  { title: 'FontSource' },
);

const FontFaceSchema = Type.Object(
  { weight: FontWeight, sources: Type.Array(FontSourceSchema, { minItems: 1 }) },
  { title: 'FontFace' },
);

export const CustomFontSchema = Type.Object(
  {
    id: Type.String({ description: 'The unique id of the font' }),
    custom: Type.Boolean({ description: 'Always true: an organization’s own font' }),
    fontFamily: FontFamily,
    fontFaces: Type.Array(FontFaceSchema, { minItems: 1 }),
    permissions: Type.Object({
      edit: Type.Boolean({ description: 'Can the caller update and delete the font' }),
    }),
  },
  { title: 'CustomizationFontDefinition' },
);
export type CustomFont = Static<typeof CustomFontSchema>;

export const CreateCustomFontSchema = Type.Object(
  {
    fontFamily: FontFamily,
    fontFaces: Type.Array(
      Type.Object(
        { weight: FontWeight, storageKey: StorageFileKey },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_FACES,
        description: 'One file per weight; a weight 400 (regular) face is required (else 412)',
      },
    ),
  },
  { additionalProperties: false, title: 'CreateCustomFont' },
);
export type CreateCustomFont = Static<typeof CreateCustomFontSchema>;

export const UpdateCustomFontSchema = Type.Object(
  {
    fontFamily: Type.Optional(FontFamily),
    fontFaces: Type.Optional(
      Type.Array(
        Type.Object(
          {
            weight: FontWeight,
            storageKey: Type.Union([StorageFileKey, Type.Null()], {
              description: 'null removes the face of this weight',
            }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_FACES,
          description:
            'Faces to add or replace, by weight; `storageKey: null` removes that weight. The weight 400 face must remain (else 412).',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'UpdateCustomFont' },
);
export type UpdateCustomFont = Static<typeof UpdateCustomFontSchema>;

import { Type } from 'typebox';

/**
 * GitBook's JSONDocument: a page's body as blocks (docs/content.md, "Page documents"). Its
 * blocks are declared loosely here: documents/ builds them, and the conformance tests judge them
 * against GitBook 0.202's schema.
 */
export const JsonDocumentSchema = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Object({}, { additionalProperties: true }),
    nodes: Type.Array(
      Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
    ),
  },
  { title: 'JSONDocument' },
);

import { type Static, Type } from 'typebox';
import { ActorSchema } from '../audit/schemas.js';

export const JsonPatchOperationSchema = Type.Object(
  {
    op: Type.Union([Type.Literal('add'), Type.Literal('remove'), Type.Literal('replace')]),
    path: Type.String({ description: 'A JSON Pointer (RFC 6901) into the document' }),
    value: Type.Optional(Type.Unknown()),
  },
  { title: 'JsonPatchOperation', description: 'One RFC 6902 operation' },
);

export const JsonPatchSchema = Type.Array(JsonPatchOperationSchema, {
  description:
    'RFC 6902 JSON Patch between two stored documents; for a variant, no override is the empty object',
});

/** A stored document as recorded: later releases may add fields, so it is not the live schema. */
const Document = (description: string) =>
  Type.Record(Type.String(), Type.Unknown(), { description });

export const RevisionSummarySchema = Type.Object(
  {
    object: Type.Literal('customization-revision'),
    number: Type.Integer({ minimum: 1, description: '1, 2, 3… per site and per variant' }),
    createdAt: Type.String({ format: 'date-time' }),
    actor: Type.Union([ActorSchema, Type.Null()], {
      description: 'null: the document as it was when history started (recorded by the upgrade)',
    }),
    operation: Type.Union(
      [Type.Literal('put'), Type.Literal('patch'), Type.Literal('delete'), Type.Literal('restore')],
      { description: 'What made the change' },
    ),
    etag: Type.String({ description: 'The ETag the change produced' }),
    changes: JsonPatchSchema,
    restoredFrom: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A restore: the revision it made current again' }),
    ),
    message: Type.Optional(
      Type.String({
        description:
          "Why the change was made when no one asked for it by hand: a site import from Git names the commit (docs/git-sync.md, 'Customization as code')",
      }),
    ),
  },
  { title: 'CustomizationRevisionSummary' },
);
export type RevisionSummary = Static<typeof RevisionSummarySchema>;

export const RevisionSchema = Type.Object(
  {
    ...RevisionSummarySchema.properties,
    settings: Type.Union([Document('The stored document after the change'), Type.Null()], {
      description:
        "The stored document after the change: the site's complete settings; a variant's override, or null when it had none",
    }),
    effective: Type.Optional(
      Document(
        "Variants: the effective settings the change produced (the site's settings of that moment, overridden); absent when the site's revision of that moment was pruned",
      ),
    ),
  },
  { title: 'CustomizationRevision' },
);

export const ComparisonSchema = Type.Object(
  {
    object: Type.Literal('customization-comparison'),
    from: Type.Integer({ minimum: 0 }),
    to: Type.Integer({ minimum: 0 }),
    changes: JsonPatchSchema,
  },
  { title: 'CustomizationComparison' },
);

export const RevisionNumberParam = {
  number: Type.Integer({ minimum: 1, description: 'The revision number' }),
};

export const CompareQuery = Type.Object({
  from: Type.Integer({
    minimum: 0,
    description: 'A revision number; 0: the defaults (a site), or no override (a variant)',
  }),
  to: Type.Integer({ minimum: 0, description: 'A revision number; 0 as for from' }),
});

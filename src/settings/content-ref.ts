import { type Static, type TObject, Type } from 'typebox';
import { Leaf } from './schema-kit.js';

/** A URL a visitor's browser may follow: absolute http(s), or mailto: for contact links. */
export const LINK_URL_PATTERN = '^(?:[hH][tT][tT][pP][sS]?://|[mM][aA][iI][lL][tT][oO]:)';

// GitBook sets no bound on ids; 256 is Livery's (an id that long is not one).
const Id = (description: string) => Type.String({ maxLength: 256, description });

const ref = <K extends string, P extends Parameters<typeof Leaf>[0]>(kind: K, properties: P) =>
  Leaf({ kind: Type.Literal(kind), ...properties });

const kinds = [
  ref('file', { file: Id('ID of the file'), space: Type.Optional(Id('ID of the space')) }),
  ref('url', {
    url: Type.String({ pattern: LINK_URL_PATTERN, maxLength: 2048, description: 'Absolute URL' }),
  }),
  ref('page', { page: Id('ID of the page'), space: Type.Optional(Id('ID of the space')) }),
  ref('anchor', {
    anchor: Id('Anchor in the page'),
    space: Type.Optional(Id('ID of the space')),
    page: Type.Optional(Id('ID of the page')),
  }),
  ref('user', { user: Id('ID of the user') }),
  ref('collection', { collection: Id('ID of the collection') }),
  ref('space', { space: Id('ID of the space') }),
  ref('reusable-content', {
    reusableContent: Id('ID of the reusable content'),
    space: Type.Optional(Id('ID of the space')),
  }),
  ref('tag', {
    tag: Id('Slug of a tag of the revision'),
    space: Type.Optional(Id('ID of the space')),
  }),
  ref('openapi', { spec: Id('Slug of the OpenAPI specification') }),
] as const;

type Kinds = (typeof kinds)[number];
export type ContentRef = Kinds extends infer K ? (K extends TObject ? Static<K> : never) : never;

/**
 * GitBook's `ContentRef`: a link target, one object shape per `kind`. The OpenAPI discriminator
 * lets the validator check only the branch that `kind` names, so an error names the real problem
 * (e.g. `to.url is required`) instead of one failure per branch.
 */
export const ContentRefSchema = Type.Unsafe<ContentRef>({
  type: 'object',
  description: 'A link target: a URL, a page, a space, a file, …',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: kinds.map((k) => ({ ...k })),
});

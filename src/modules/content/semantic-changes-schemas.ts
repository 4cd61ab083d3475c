import { Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { ChangeRequestSchema } from './schemas.js';

/** GitBook 0.202's ChangeAttribute*: a value before and after (absent: the attribute had none). */
const Change = (title: string) =>
  Type.Object(
    {
      before: Type.Optional(Type.Unknown()),
      after: Type.Optional(Type.Unknown()),
    },
    { title },
  );
const Attributes = (title: string, names: string[]) =>
  Type.Object(
    Object.fromEntries(names.map((name) => [name, Type.Optional(Change(`ChangeAttribute`))])),
    { title, minProperties: 1 },
  );

const ChangedPage = Type.Object(
  {
    id: Type.String(),
    type: Enum(['document', 'group', 'link', 'computed']),
    title: Type.String(),
    path: Type.Optional(Type.String({ description: 'Documents and groups: the page’s path' })),
  },
  { title: 'ChangedRevisionPage' },
);
const ChangedFile = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    contentType: Type.String(),
    downloadURL: Type.String(),
  },
  { title: 'ChangedRevisionFile' },
);
const ChangedReusable = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    document: Type.Optional(Type.String({ description: 'Its document id: its own id in Livery' })),
  },
  { title: 'ChangedRevisionReusableContent' },
);

const kind = (name: string) => Type.Literal(name);

const PageChange = Type.Union(
  [
    Type.Object({ type: kind('page_created'), page: ChangedPage }),
    Type.Object({
      type: kind('page_edited'),
      page: ChangedPage,
      attributes: Type.Union([
        Attributes('RevisionPageDocumentChangeAttributes', [
          'title',
          'description',
          'slug',
          'document',
          'cover',
          'emoji',
          'layout',
          'variables',
        ]),
        Attributes('RevisionPageGroupChangeAttributes', ['title', 'emoji', 'slug']),
        Attributes('RevisionPageLinkChangeAttributes', ['title', 'emoji', 'target']),
      ]),
    }),
    Type.Object({ type: kind('page_deleted'), page: ChangedPage }),
    Type.Object({
      type: kind('page_moved'),
      page: ChangedPage,
      parent: Type.Object({
        before: Type.Optional(ChangedPage),
        after: Type.Optional(ChangedPage),
      }),
    }),
  ],
  { description: 'Pages' },
);

const OtherChange = Type.Union(
  [
    Type.Object({ type: Enum(['file_created', 'file_deleted']), file: ChangedFile }),
    Type.Object({
      type: kind('file_edited'),
      file: ChangedFile,
      attributes: Attributes('RevisionFileChangeAttributes', [
        'name',
        'downloadURL',
        'size',
        'contentType',
        'dimensions',
      ]),
    }),
    Type.Object({
      type: Enum(['reusable_content_created', 'reusable_content_deleted']),
      reusableContent: ChangedReusable,
    }),
    Type.Object({
      type: kind('reusable_content_edited'),
      reusableContent: ChangedReusable,
      attributes: Attributes('RevisionReusableContentChangeAttributes', ['title', 'document']),
    }),
  ],
  { description: 'Files and reusable contents (Livery has no variables and no tags)' },
);

export const RevisionSemanticChangesSchema = Type.Object(
  {
    mergedFrom: Type.Optional(ChangeRequestSchema),
    changes: Type.Array(Type.Union([PageChange, OtherChange], { title: 'RevisionSemanticChange' })),
    more: Type.Optional(
      Type.Number({ description: 'How many changes were omitted because above the result limit' }),
    ),
  },
  { title: 'RevisionSemanticChanges' },
);

export const RevisionChangesQuery = Type.Object({
  metadata: Type.Optional(Type.Boolean({ description: 'Accepted; changes carry no Git metadata' })),
  computed: Type.Optional(
    Type.Boolean({ description: 'Accepted; Livery has no computed content' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 10,
      description: 'Limit the number of changes returned (1 to 1000; 10 by default)',
    }),
  ),
});

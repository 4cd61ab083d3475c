import { Type } from 'typebox';

/** GitBook's GitSyncBlob: the blob a page, file or reusable content came from. */
export const GitSyncBlobSchema = Type.Object({
  oid: Type.String({ description: 'SHA for the blob' }),
  path: Type.String({ description: 'Path of the blob in the Git tree' }),
});

/** GitBook 0.202's RevisionFile. */
export const RevisionFileSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    contentType: Type.String(),
    downloadURL: Type.String(),
    size: Type.Number(),
    dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
    git: Type.Optional(GitSyncBlobSchema),
  },
  { description: 'A file of a revision: an image or a download' },
);

/** GitBook 0.202's RevisionReusableContent (its `document` names the body's id). */
export const ReusableContentSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  document: Type.Optional(Type.String()),
  git: Type.Optional(GitSyncBlobSchema),
});

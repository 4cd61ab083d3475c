import { Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { UPLOAD_KINDS } from './kinds.js';

/** GitBook 0.202's StorageFileMetadata. */
export const StorageFileMetadataSchema = Type.Object({
  name: Type.String({ description: 'Original filename' }),
  type: Type.String({ description: 'MIME type of the file' }),
  size: Type.Number({ description: 'Size of the file in bytes' }),
});

/** GitBook 0.202's StorageUploadKind. */
export const StorageUploadKindSchema = Enum(
  UPLOAD_KINDS,
  'What the file is for: it decides the types and size accepted (docs/uploads.md)',
);

export const GenerateUploadUrlSchema = Type.Object({
  file: StorageFileMetadataSchema,
  kind: StorageUploadKindSchema,
});

/** GitBook 0.202's StorageUploadURL. */
export const StorageUploadUrlSchema = Type.Object({
  object: Type.Literal('storage-signed-url', { description: 'The kind of file to upload' }),
  url: Type.String({ format: 'uri', description: 'Presigned URL for uploading the file' }),
  key: Type.String({ description: 'The bucket object key for the file' }),
});

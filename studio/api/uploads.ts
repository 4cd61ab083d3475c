/**
 * Uploads through GitBook's two steps (docs/uploads.md): generateStorageUploadURL for a signed
 * URL, then a PUT of the file's bytes to it. Answers the stored file's key and public URL.
 */
import { ApiError, api } from './client.js';

/** Types browsers leave empty on some systems, from the name's extension. */
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

export const typeOfFile = (file: File): string =>
  file.type !== ''
    ? file.type
    : (BY_EXTENSION[file.name.split('.').pop()?.toLowerCase() ?? ''] ?? '');

export interface Uploaded {
  key: string;
  url: string;
}

export async function uploadFile(
  organizationId: string,
  file: File,
  kind: 'organization_file' | 'customization_font' | 'import_file',
): Promise<Uploaded> {
  const type = typeOfFile(file);
  const signed = await api.post<{ url: string; key: string }>(
    `/v1/orgs/${encodeURIComponent(organizationId)}/storage/upload`,
    { file: { name: file.name, type, size: file.size }, kind },
  );
  // The signed URL is the credential: no cookie, no CSRF token (it may be another origin).
  const response = await fetch(signed.body.url, {
    method: 'PUT',
    headers: { 'content-type': type },
    body: file,
    credentials: 'omit',
  });
  const answer = (await response.json().catch(() => ({}))) as {
    url?: string;
    error?: { message?: string };
  };
  if (!response.ok || typeof answer.url !== 'string') {
    throw new ApiError(
      response.status,
      answer.error?.message ?? `Upload failed (${response.status})`,
      undefined,
      undefined,
    );
  }
  return { key: signed.body.key, url: answer.url };
}

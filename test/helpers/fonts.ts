import { readFileSync } from 'node:fs';
import { expectStatus, type TestContext } from './app.js';

/**
 * Font files for the custom-fonts tests: Lato and Space Mono (SIL Open Font License 1.1, their
 * licences beside them in assets/fonts/licenses/), the WOFF2 files Livery already vendors
 * (scripts/vendor-fonts.sh), uploaded as an organization's custom font would be.
 */
const fontFile = (name: string) =>
  readFileSync(new URL(`../../assets/fonts/${name}`, import.meta.url));

export const LATO_400 = fontFile('lato-latin-400-normal.woff2');
export const LATO_700 = fontFile('lato-latin-700-normal.woff2');
export const SPACE_MONO_400 = fontFile('space-mono-latin-400-normal.woff2');

/**
 * Uploads a file as a browser would (generateStorageUploadURL, then PUT of the bytes to the URL
 * it answered) and returns its storage key. `token` defaults to the owner's.
 */
export async function upload(
  t: TestContext,
  bytes: Buffer,
  file: { name: string; type: string },
  kind = 'customization_font',
  organizationId = t.orgId,
  token = t.token,
): Promise<string> {
  const made = expectStatus(
    await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organizationId}/storage/upload`,
      headers: { authorization: `Bearer ${token}` },
      payload: { file: { ...file, size: bytes.length }, kind },
    }),
    201,
  ) as { url: string; key: string };
  expectStatus(
    await t.app.inject({
      method: 'PUT',
      url: new URL(made.url).pathname,
      headers: { 'content-type': file.type },
      payload: bytes,
    }),
    200,
  );
  return made.key;
}

/** A WOFF2 font file uploaded to the organization: its storage key. */
export const uploadFont = (t: TestContext, bytes = LATO_400, name = 'brand.woff2') =>
  upload(t, bytes, { name, type: 'font/woff2' });

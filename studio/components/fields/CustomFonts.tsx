import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client.js';
import {
  type CustomFont,
  createCustomFont,
  definitionOf,
  FONT_ACCEPT,
  listCustomFonts,
  uploadFontFile,
} from '../../api/fonts.js';
import { isObject, type Json } from '../../schema/paths.js';
import { type ControlProps, idOf, nameOf } from './common.js';

/**
 * The organization's custom fonts in a font setting (docs/studio.md, "Fonts"): each one a
 * choice of the font select (choosing it stores its current definition), and "Upload a font",
 * which uploads a file, makes it a font of the organization and chooses it.
 */

/** Font settings: the paths that take a font definition. */
export const isFontPath = (path: string) => /(^|\.)(font|headingFont|monospaceFont)$/.test(path);

/** The select's value of a custom font. */
export const CUSTOM_FONT = 'font:';

/** Per organization, its fonts once read (shared by the three font fields). */
const fonts = signal<Record<string, CustomFont[] | 'loading'>>({});

async function load(organizationId: string): Promise<void> {
  fonts.value = { ...fonts.value, [organizationId]: 'loading' };
  let list: CustomFont[] = [];
  try {
    list = await listCustomFonts(organizationId);
  } catch {
    // A member who may not read them sees none; the rest of the form works.
  }
  fonts.value = { ...fonts.value, [organizationId]: list };
}

/** The organization's custom fonts, read on first use. */
export function useCustomFonts(organizationId: string): CustomFont[] {
  const known = fonts.value[organizationId];
  if (known === undefined) void load(organizationId);
  return Array.isArray(known) ? known : [];
}

/** The select value of a setting's value that is one of `list`, if it is one. */
export function customChoice(value: Json | undefined, list: CustomFont[]): string | undefined {
  if (!isObject(value) || value.custom !== true || typeof value.id !== 'string') return undefined;
  return list.some((font) => font.id === value.id) ? `${CUSTOM_FONT}${value.id}` : undefined;
}

/** The definition a select value names, if it names one of `list`. */
export function chosenFont(choice: string, list: CustomFont[]) {
  if (!choice.startsWith(CUSTOM_FONT)) return undefined;
  const font = list.find((f) => f.id === choice.slice(CUSTOM_FONT.length));
  return font === undefined ? undefined : (definitionOf(font) as unknown as Json);
}

/** "Upload a font": a file and its family name; the new font becomes this setting's value. */
export function FontUpload(props: ControlProps) {
  const { field, editor } = props;
  const organizationId = editor.target.organizationId;
  const [file, setFile] = useState<File | undefined>(undefined);
  const [family, setFamily] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const id = `${idOf(field.path)}-upload`;
  const upload = async () => {
    if (file === undefined || family.trim() === '') return;
    setBusy(true);
    setStatus(`Uploading ${file.name}…`);
    try {
      const key = await uploadFontFile(organizationId, file);
      const font = await createCustomFont(organizationId, family.trim(), key);
      const list = fonts.value[organizationId];
      fonts.value = {
        ...fonts.value,
        [organizationId]: [...(Array.isArray(list) ? list : []), font],
      };
      editor.set(field.path, definitionOf(font) as unknown as Json);
      setStatus(`Uploaded: ${font.fontFamily} is now the ${field.label.toLowerCase()}.`);
      setFile(undefined);
    } catch (error) {
      setStatus(`Upload failed: ${error instanceof ApiError ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="font-upload" data-font-upload={field.path}>
      <summary>Upload a font</summary>
      <label class="setting-label" for={`${id}-file`}>
        <span class="sr-only">{nameOf(props)}, </span>Font file (WOFF2, WOFF, TTF or OTF, regular
        weight)
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept={FONT_ACCEPT}
        disabled={editor.readOnly !== null || busy}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          setFile(chosen);
          if (chosen !== undefined && family === '') {
            setFamily(chosen.name.replace(/\.[A-Za-z0-9]+$/, '').slice(0, 50));
          }
        }}
      />
      <label class="setting-label" for={`${id}-family`}>
        <span class="sr-only">{nameOf(props)}, </span>Family name
      </label>
      <input
        id={`${id}-family`}
        type="text"
        maxLength={50}
        value={family}
        disabled={editor.readOnly !== null || busy}
        onInput={(event) => setFamily(event.currentTarget.value)}
      />
      <button
        type="button"
        class="button-small"
        disabled={editor.readOnly !== null || busy || file === undefined || family.trim() === ''}
        onClick={() => void upload()}
      >
        Upload and use
      </button>
      <p role="status" class="font-upload-status">
        {status}
      </p>
    </details>
  );
}

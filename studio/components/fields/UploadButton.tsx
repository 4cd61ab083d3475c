import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client.js';
import { uploadFile } from '../../api/uploads.js';
import { UPLOADS } from '../../schema/hints.js';
import { patternOf } from '../../schema/paths.js';
import { type ControlProps, idOf, nameOf } from './common.js';

/**
 * "Upload" beside an image URL setting (docs/uploads.md): the chosen file goes to Livery
 * (generateStorageUploadURL, then a PUT of its bytes) and the field takes the stored file's URL.
 * A refusal (a file that is not what it says, too large) shows under the field.
 */
export function UploadButton(props: ControlProps) {
  const { field, editor } = props;
  const hint = UPLOADS[patternOf(field.path)];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  if (hint === undefined) return null;
  const id = `${idOf(field.path)}-upload`;

  const chosen = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file may be chosen again after a failure
    if (file === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const { url } = await uploadFile(editor.target.organizationId, file, hint.kind);
      editor.set(field.path, url);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span class="upload">
      <label class={`button-small upload-button${busy ? ' is-busy' : ''}`} for={id}>
        {busy ? 'Uploading…' : 'Upload'}
      </label>
      <input
        type="file"
        id={id}
        class="sr-only"
        data-upload={field.path}
        accept={hint.accept}
        aria-label={`Upload ${nameOf(props).toLowerCase()}`}
        disabled={busy}
        onChange={(event) => chosen(event.currentTarget)}
      />
      {error === undefined ? null : (
        <span class="setting-error" role="alert" data-upload-error={field.path}>
          {error}
        </span>
      )}
    </span>
  );
}

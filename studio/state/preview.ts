import { computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import { ApiError } from '../api/client.js';
import { type PreviewInput, renderPreview } from '../api/customization.js';
import { getAt, isObject, type Json } from '../schema/paths.js';
import { firstInvalid } from '../schema/validate.js';
import type { Editor } from './editor.js';

/**
 * The live preview's model: the editor's draft, debounced, rendered by POST …/preview. What is
 * typed is not what is previewed: the input follows the draft 250 ms after the last change; at
 * most one request is in flight, and when it ends the newest input (if it changed) is sent next,
 * so the last input always wins and no stale page replaces a newer one.
 */

export type PreviewTheme = 'light' | 'dark';

export interface PreviewModel {
  /** The last page rendered for the newest input sent. */
  readonly html: ReadonlySignal<string | undefined>;
  /** Why the newest render failed (shown over the last good page). */
  readonly error: ReadonlySignal<string | undefined>;
  readonly busy: ReadonlySignal<boolean>;
  /** The theme forced in the preview only (`themes.default`). */
  readonly theme: Signal<PreviewTheme>;
  /** The page shown; undefined = the first page. */
  readonly pagePath: Signal<string | undefined>;
  dispose(): void;
}

export const DEBOUNCE_MS = 250;

/** The preview request of a draft: the draft with `themes.default` forced to the chosen theme. */
export function previewInput(
  editor: Editor,
  draft: Json,
  theme: PreviewTheme,
  pagePath?: string,
): PreviewInput {
  const page = pagePath === undefined ? {} : { pagePath };
  const withTheme = (body: Json) => {
    const object = isObject(body) ? body : {};
    const themes = isObject(object.themes) ? object.themes : {};
    return { ...object, themes: { ...themes, default: theme } };
  };
  const { siteSpaceId } = editor.target;
  return siteSpaceId === undefined
    ? { ...page, site: withTheme(draft) }
    : { ...page, siteSpaceId, customization: withTheme(draft) };
}

export function createPreview(editor: Editor): PreviewModel {
  const html = signal<string | undefined>(undefined);
  const error = signal<string | undefined>(undefined);
  const busy = signal(false);
  const initialTheme =
    getAt(editor.effective.value, 'themes.default') === 'dark' ? 'dark' : 'light';
  const theme = signal<PreviewTheme>(initialTheme);
  const pagePath = signal<string | undefined>(undefined);
  const input = computed(() =>
    previewInput(editor, editor.draft.value, theme.value, pagePath.value),
  );

  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  /** The newest input, and the one the request in flight renders (undefined when idle). */
  let latest: PreviewInput | undefined;
  let inFlight: PreviewInput | undefined;

  function send(value: PreviewInput): void {
    inFlight = value;
    busy.value = true;
    controller = new AbortController();
    renderPreview(editor.target, value, controller.signal).then(
      (page) =>
        finish(value, () => {
          html.value = page;
          error.value = undefined;
        }),
      (failure: unknown) =>
        finish(value, () => {
          error.value =
            failure instanceof ApiError
              ? failure.message
              : `The preview failed: ${String(failure)}`;
        }),
    );
  }

  function finish(value: PreviewInput, show: () => void): void {
    inFlight = undefined;
    if (disposed) return;
    // A newer input is waiting: this answer is already stale, the next one replaces it.
    if (latest !== value && latest !== undefined) send(latest);
    else {
      show();
      busy.value = false;
    }
  }

  function request(value: PreviewInput): void {
    latest = value;
    if (inFlight === undefined) send(value);
  }

  /** The draft's first value the schema refuses (a color half typed): not sent to the server. */
  const invalid = computed(() => {
    const schema = editor.schema.value;
    if (schema === undefined) return undefined;
    return firstInvalid(editor.variant ? schema.override : schema.settings, editor.draft.value);
  });

  let first = true;
  const stop = effect(() => {
    const value = input.value;
    const problem = invalid.value;
    if (problem !== undefined) {
      clearTimeout(timer);
      error.value = `Not updated while ${problem === '' ? 'the settings are' : `${problem} is`} not valid.`;
      return;
    }
    if (first) {
      first = false;
      request(value); // the first page at once; changes after that are debounced
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => request(value), DEBOUNCE_MS);
  });

  return {
    html,
    error,
    busy,
    theme,
    pagePath,
    dispose() {
      disposed = true;
      stop();
      clearTimeout(timer);
      controller?.abort();
    },
  };
}

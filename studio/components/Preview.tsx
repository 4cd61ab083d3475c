import { useEffect, useRef, useState } from 'preact/hooks';
import {
  fetchPreviewPages,
  type PreviewPage,
  type SiteSpaceRef,
  siteSpaceOf,
} from '../api/customization.js';
import type { Editor } from '../state/editor.js';
import { createPreview, type PreviewModel, type PreviewTheme } from '../state/preview.js';

/**
 * The live preview beside the form: the page as the published site would render it with the
 * unsaved settings. Two sandboxed frames take turns: the new page is written into the hidden one
 * and shown when it has loaded, so the visible page never flashes blank. Errors are an overlay on
 * the last good page; the form is never blocked.
 */
export function Preview({
  editor,
  siteSpaces,
}: {
  editor: Editor;
  /** The site's site-spaces, if the caller has them (saves a request). */
  siteSpaces?: readonly SiteSpaceRef[];
}) {
  const [model, setModel] = useState<PreviewModel | undefined>(undefined);
  const [pages, setPages] = useState<PreviewPage[]>([]);
  useEffect(() => {
    const created = createPreview(editor);
    setModel(created);
    return () => created.dispose();
  }, [editor]);
  // Refetch the pages only when the space shown changes, not when the caller's list is a new array.
  const spaceId =
    siteSpaces === undefined ? undefined : siteSpaceOf(editor.target, siteSpaces)?.space.id;
  useEffect(() => {
    let current = true;
    fetchPreviewPages(editor.target, siteSpaces).then(
      (list) => {
        if (current) setPages(list);
      },
      () => {
        // Without the page list the preview still shows the first page.
      },
    );
    return () => {
      current = false;
    };
  }, [editor, spaceId]);
  if (model === undefined) {
    return <section class="preview" data-testid="preview" aria-label="Live preview" />;
  }
  return <PreviewView model={model} pages={pages} />;
}

const THEMES: PreviewTheme[] = ['light', 'dark'];

function PreviewView({ model, pages }: { model: PreviewModel; pages: PreviewPage[] }) {
  const frames = [useRef<HTMLIFrameElement>(null), useRef<HTMLIFrameElement>(null)] as const;
  const [visible, setVisible] = useState(0);
  const html = model.html.value;
  const error = model.error.value;

  /** The page the visible frame shows: a new render of the same page keeps its scroll position. */
  const shownPage = useRef<string | undefined>(undefined);

  useEffect(() => {
    const hidden = frames[1 - visible]?.current;
    if (html === undefined || hidden === null || hidden === undefined) return;
    const page = model.pagePath.value;
    const samePage = page === shownPage.current;
    hidden.onload = () => {
      hidden.onload = null;
      // Whoever is looking at the footer while changing it stays at the footer.
      const shown = frames[visible]?.current?.contentWindow;
      if (samePage && shown) hidden.contentWindow?.scrollTo(shown.scrollX, shown.scrollY);
      shownPage.current = page;
      setVisible(1 - visible);
    };
    hidden.srcdoc = withoutScripts(html);
  }, [html]);

  return (
    <section
      class="preview"
      data-testid="preview"
      aria-label="Live preview"
      aria-busy={model.busy.value}
    >
      <div class="preview-bar">
        <fieldset class="segmented preview-theme">
          <legend class="sr-only">Preview theme</legend>
          <span class="segments">
            {THEMES.map((theme) => (
              <label key={theme} class="segment">
                <input
                  type="radio"
                  name="preview-theme"
                  value={theme}
                  data-preview-theme={theme}
                  checked={model.theme.value === theme}
                  onChange={() => {
                    model.theme.value = theme;
                  }}
                />
                <span>{theme === 'light' ? 'Light' : 'Dark'}</span>
              </label>
            ))}
          </span>
        </fieldset>
        <label class="preview-page">
          <span class="sr-only">Page to preview</span>
          <select
            data-preview-page
            value={model.pagePath.value ?? ''}
            onChange={(event) => {
              const path = event.currentTarget.value;
              model.pagePath.value = path === '' ? undefined : path;
            }}
          >
            <option value="">First page</option>
            {pages.map((page) => (
              <option key={page.path} value={page.path}>
                {`${'\u00a0\u00a0'.repeat(page.depth)}${page.title}`}
              </option>
            ))}
          </select>
        </label>
        <span class="preview-status" role="status">
          {model.busy.value ? 'Updating…' : ''}
        </span>
      </div>
      <div class="preview-frames">
        {frames.map((ref, index) => (
          <iframe
            key={index}
            ref={ref}
            title={index === visible ? 'Preview of the page' : 'Preview (loading)'}
            sandbox="allow-same-origin"
            data-visible={index === visible ? 'true' : 'false'}
            aria-hidden={index === visible ? undefined : 'true'}
            tabIndex={index === visible ? 0 : -1}
          />
        ))}
        {error === undefined ? null : (
          <div class="preview-error" role="alert" data-preview-error>
            <strong>The preview could not be updated.</strong> {error}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * The page without its scripts: the frame is sandboxed without `allow-scripts` (a frame that may
 * run scripts at the studio's origin could act as the signed-in user), so they could not run and
 * would only log errors. `allow-same-origin` lets the page load Livery's fonts without CORS.
 */
function withoutScripts(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  for (const script of document.querySelectorAll('script')) script.remove();
  return `<!doctype html>${document.documentElement.outerHTML}`;
}

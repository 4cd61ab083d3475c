import { useSignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import {
  getSiteStructure,
  type MovePosition,
  pointerOf,
  type SiteStructure,
  type StructureNode,
  type StructureSiteSpace,
  sortSiteStructure,
} from '../api/structure';
import { ReadOnlyNotice } from './ReadOnlyNotice';

type Item = StructureNode | StructureSiteSpace;

const KIND: Record<Item['object'], string> = {
  'site-section': 'Section',
  'site-section-group': 'Group',
  'site-external-link': 'Link',
  'site-space': 'Variant',
};

/**
 * A site's structure as a tree (sections, section groups, external links, and each section's
 * variants), each item with buttons that move it up or down among its siblings through the API
 * (sortSiteStructure). After a move the tree is read again from the server, focus stays on the
 * button used, and a live region says what happened; a refused move shows the API's message,
 * and the tree is read again too (it may have been stale).
 */
export function StructureEditor({
  org,
  siteId,
  refused,
}: {
  org: string;
  siteId: string;
  /** Why the signed-in token may not reorder (the API's 403 text), or null. */
  refused: string | null;
}) {
  const [structure, setStructure] = useState<SiteStructure | null>(null);
  const loadError = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const status = useSignal('');
  const busy = useSignal(false);
  /** The button to focus once the tree is drawn again: `{id}:{up|down}`. */
  const focusAfter = useSignal<string | null>(null);

  async function load() {
    try {
      setStructure(await getSiteStructure(org, siteId));
      loadError.value = null;
    } catch (failure) {
      loadError.value = failure instanceof Error ? failure.message : String(failure);
    }
  }
  useEffect(() => {
    void load();
  }, [org, siteId]);

  useEffect(() => {
    const key = focusAfter.value;
    if (key === null) return;
    focusAfter.value = null;
    const [id, direction] = key.split(':') as [string, string];
    const other = direction === 'up' ? 'down' : 'up';
    const button =
      document.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(id)}:${direction}"]`) ??
      null;
    const fallback = document.querySelector<HTMLButtonElement>(
      `[data-move="${CSS.escape(id)}:${other}"]`,
    );
    (button !== null && !button.disabled ? button : fallback)?.focus();
  }, [structure]);

  async function move(item: Item, siblings: readonly Item[], direction: 'up' | 'down') {
    if (busy.value) return; // one move at a time; the buttons stay focusable meanwhile
    const index = siblings.indexOf(item);
    const neighbour = siblings[direction === 'up' ? index - 1 : index + 1];
    if (neighbour === undefined) return;
    const position: MovePosition =
      direction === 'up' ? { before: pointerOf(neighbour) } : { after: pointerOf(neighbour) };
    busy.value = true;
    error.value = null;
    try {
      await sortSiteStructure(org, siteId, pointerOf(item), position);
      focusAfter.value = `${item.id}:${direction}`;
      await load();
      // Announced once the tree shows the move, not while it still shows the old order.
      status.value = `Moved “${item.title}” ${direction === 'up' ? 'up' : 'down'}.`;
    } catch (failure) {
      error.value = failure instanceof Error ? failure.message : String(failure);
      // The tree may be stale (another editor changed the site): show what the site has now.
      focusAfter.value = `${item.id}:${direction}`;
      await load();
    } finally {
      busy.value = false;
    }
  }

  const list = (items: readonly Item[], label?: string) => (
    <ol class="structure-list" aria-label={label}>
      {items.map((item, index) => (
        <li key={item.id} class="structure-item" data-testid={`structure-${item.id}`}>
          <div class="structure-row">
            <span class={`badge badge-small structure-kind kind-${item.object}`}>
              {KIND[item.object]}
            </span>
            <span class="structure-title" data-testid="structure-title">
              {item.title}
            </span>
            <Details item={item} />
            <span class="structure-moves">
              {(['up', 'down'] as const).map((direction) => {
                const edge = direction === 'up' ? index === 0 : index === items.length - 1;
                return (
                  <button
                    key={direction}
                    type="button"
                    class="button button-small"
                    data-move={`${item.id}:${direction}`}
                    data-testid={`move-${direction}-${item.id}`}
                    aria-label={`Move “${item.title}” ${direction}`}
                    title={refused ?? `Move ${direction}`}
                    disabled={edge || refused !== null}
                    aria-disabled={busy.value ? 'true' : undefined}
                    onClick={() => void move(item, items, direction)}
                  >
                    <span aria-hidden="true">{direction === 'up' ? '↑' : '↓'}</span>
                  </button>
                );
              })}
            </span>
          </div>
          {item.object === 'site-section-group' &&
            item.children.length > 0 &&
            list(item.children, `In ${item.title}`)}
          {item.object === 'site-section' &&
            item.siteSpaces.length > 0 &&
            list(item.siteSpaces, `Variants of ${item.title}`)}
        </li>
      ))}
    </ol>
  );

  return (
    <section
      class="page structure"
      aria-labelledby="structure-heading"
      aria-busy={busy.value ? 'true' : undefined}
      data-testid="structure"
    >
      <h2 id="structure-heading">Structure</h2>
      <p class="muted">
        The published site shows its sections, groups and links in this order; each section’s
        variants are listed in its variant switcher in this order.
      </p>
      {refused !== null && <ReadOnlyNotice reason={refused} />}
      {loadError.value !== null && (
        <p class="error" role="alert">
          {loadError.value}
        </p>
      )}
      {error.value !== null && (
        <p class="error" role="alert" data-testid="structure-error">
          {error.value}
        </p>
      )}
      <p class="visually-hidden" role="status" aria-live="polite">
        {status.value}
      </p>
      {structure === null && loadError.value === null && (
        <p class="muted" role="status">
          Loading…
        </p>
      )}
      {structure !== null &&
        (structure.structure.length === 0 ? (
          <p class="muted">This site has no variant yet.</p>
        ) : (
          list(structure.structure, 'Site structure')
        ))}
    </section>
  );
}

/** What says an item apart: its path or URL, default, draft, hidden, icon, translations. */
function Details({ item }: { item: Item }) {
  const flags: string[] = [];
  if ('default' in item && item.default === true) flags.push('default');
  if ('draft' in item && item.draft === true) flags.push('draft');
  if ('hidden' in item && item.hidden === true) flags.push('hidden');
  const translations =
    'localizedTitle' in item && item.localizedTitle !== undefined
      ? Object.entries(item.localizedTitle)
      : [];
  return (
    <>
      {'path' in item && <code class="structure-path">/{item.path}</code>}
      {item.object === 'site-external-link' && (
        <code class="structure-path structure-url">{item.url}</code>
      )}
      {item.object === 'site-space' && item.space.title !== item.title && (
        <span class="muted small">space “{item.space.title}”</span>
      )}
      {'icon' in item && item.icon !== undefined && (
        <span class="muted small">icon {item.icon}</span>
      )}
      {translations.map(([language, text]) => (
        <span key={language} class="muted small structure-translation" lang={language}>
          {language}: {text}
        </span>
      ))}
      {flags.map((flag) => (
        <span key={flag} class="badge badge-small">
          {flag}
        </span>
      ))}
    </>
  );
}

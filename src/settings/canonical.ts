import type { PageActions, PageActionsInput } from './settings-parts.js';
import type { SettingsPatch } from './settings-schema.js';
import type { PageAction } from './vocabulary.js';

/**
 * Bodies may say one thing in two ways, because GitBook's API generations differ (0.130 and
 * 0.202) or because a value has a "nothing" spelling. Livery stores one form, made here before any
 * merge, so that equal settings are equal documents (and equal ETags). docs/customization.md,
 * "Both API generations", lists every mapping.
 */

/**
 * The stored form of a PUT or PATCH body. `basePageActions` is what `pageActions` booleans edit
 * when a body sends them without `items`: the defaults for a PUT (a full replacement), the
 * variant's current effective value for a PATCH. It is only called when needed.
 */
export function canonicalPatch(
  patch: SettingsPatch,
  basePageActions: () => PageActions,
): SettingsPatch {
  let result = patch;
  const { pageActions } = patch;
  if (pageActions !== undefined && pageActions !== null) {
    result = { ...result, pageActions: canonicalPageActions(pageActions, basePageActions) };
  }
  const links = patch.header?.links;
  if (Array.isArray(links) && links.some((item) => item.condition === '')) {
    result = {
      ...result,
      header: { ...result.header, links: links.map(withoutEmptyCondition) },
    };
  }
  return result;
}

/**
 * `pageActions` as stored: `items` (GitBook 0.202) with the 0.130 booleans derived from it.
 * - `items` given: it is the truth, duplicates dropped (first wins); booleans sent beside it are
 *   read-only views and ignored (a 0.202 client sends back the booleans it read).
 * - only booleans (GitBook 0.130): each edits the base list: `true` adds its action at the end
 *   when missing, `false` removes it.
 */
export function canonicalPageActions(
  input: PageActionsInput,
  base: () => PageActions,
): PageActions {
  let items: PageAction[];
  if (input.items !== undefined) {
    items = [...new Set(input.items)];
  } else {
    items = [...base().items];
    if (input.externalAI !== undefined) items = toggled(items, 'external-ai', input.externalAI);
    if (input.markdown !== undefined) items = toggled(items, 'markdown', input.markdown);
  }
  return pageActionsOf(items);
}

export function pageActionsOf(items: PageAction[]): PageActions {
  return { items, externalAI: items.includes('external-ai'), markdown: items.includes('markdown') };
}

function toggled(items: PageAction[], action: PageAction, on: boolean): PageAction[] {
  if (on) return items.includes(action) ? items : [...items, action];
  return items.filter((item) => item !== action);
}

type HeaderItemInput = NonNullable<
  NonNullable<NonNullable<SettingsPatch['header']>['links']>
>[number];

/** An empty `condition` (GitBook 0.202's `Expression` may be "") is no condition. */
function withoutEmptyCondition(item: HeaderItemInput): HeaderItemInput {
  if (item.condition !== '') return item;
  const { condition: _none, ...rest } = item;
  return rest;
}

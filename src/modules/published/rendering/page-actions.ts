import { html, type SafeHtml } from '../../../html/safe-html.js';
import { attrUrl } from '../../../html/safe-url.js';
import type { Settings } from '../../../settings/settings-schema.js';
import type { PageAction } from '../../../settings/vocabulary.js';
import { encodeSegment } from '../../../well-formed-text.js';
import { type IconName, icon } from './icons.js';
import { targetAttributes } from './page-chrome.js';
import type { Strings } from './strings.js';

/**
 * The page menu (`pageActions.items`, GitBook 0.202): the actions Livery can carry out, in the
 * order of `items`; the first one is the main button, the others are in a dropdown. Pure
 * (test/published-page-actions.test.ts); docs/published-site.md, "Page actions", says what each
 * action does and why some never show.
 */

export interface PageActionContext {
  /** The page as Markdown on this site (`{page address}.md`). */
  markdownHref: string;
  /**
   * The absolute address of that Markdown when anyone who has it may read it (public and
   * unlisted sites): the external AI is sent there. Absent otherwise, and the AI actions with it.
   */
  publicMarkdownUrl?: string;
  /**
   * The variant's PDF ("Export as PDF", docs/pdf.md): on published pages; absent (previews),
   * the action prints the page.
   */
  pdfHref?: string;
}

/**
 * The actions shown, in order. Hidden: `assistant` (Livery has no AI assistant; GitBook ties it
 * to `ai.mode: assistant`), `mcp` (no MCP server), `git` (no Git Sync: `git.showEditLink` has
 * the edit link); `external-ai` when `ai.mode` is `none` (no AI on the site at all) or when the
 * page is not readable by an outside service; `pdf` when `pdf.enabled` is off.
 */
export function shownActions(settings: Settings, context: PageActionContext): PageAction[] {
  const shown: Record<PageAction, boolean> = {
    markdown: true,
    'external-ai': settings.ai.mode !== 'none' && context.publicMarkdownUrl !== undefined,
    pdf: settings.pdf.enabled,
    assistant: false,
    mcp: false,
    git: false,
  };
  return settings.pageActions.items.filter((action) => shown[action]);
}

/** One entry of the menu: a button the page's script handles, or a link. */
export type Entry =
  | {
      kind: 'button';
      action: 'copy-markdown' | 'print';
      label: string;
      icon: IconName;
      href?: string;
      /** Said for a moment once done ("Copied"). */
      done?: string;
    }
  | { kind: 'link'; label: string; icon: IconName; href: string };

/** The prompt of the external AI: the page's Markdown to read, in the site's language. */
const aiPrompt = (t: Strings, url: string) => t.aiPrompt.replace('{url}', url);

export function menuEntries(settings: Settings, context: PageActionContext, t: Strings): Entry[] {
  return shownActions(settings, context).flatMap((action): Entry[] => {
    switch (action) {
      case 'markdown':
        return [
          {
            kind: 'button',
            action: 'copy-markdown',
            label: t.copyPage,
            icon: 'copy',
            href: context.markdownHref,
            done: t.copied,
          },
          { kind: 'link', label: t.viewMarkdown, icon: 'document', href: context.markdownHref },
        ];
      case 'external-ai': {
        const prompt = encodeSegment(aiPrompt(t, context.publicMarkdownUrl ?? ''));
        return [
          {
            kind: 'link',
            label: t.openInChatGPT,
            icon: 'sparkle',
            href: `https://chatgpt.com/?hints=search&q=${prompt}`,
          },
          {
            kind: 'link',
            label: t.openInClaude,
            icon: 'sparkle',
            href: `https://claude.ai/new?q=${prompt}`,
          },
        ];
      }
      case 'pdf':
        return context.pdfHref === undefined
          ? [{ kind: 'button', action: 'print', label: t.exportPdf, icon: 'printer' }]
          : [{ kind: 'link', label: t.exportPdf, icon: 'printer', href: context.pdfHref }];
      default:
        return [];
    }
  });
}

/** The menu's HTML, or '' when no action is shown (an empty `items` turns the menu off). */
export function pageActionsHtml(
  settings: Settings,
  context: PageActionContext | undefined,
  t: Strings,
): SafeHtml | '' {
  if (context === undefined) return '';
  const [main, ...more] = menuEntries(settings, context, t);
  if (main === undefined) return '';
  const rest =
    more.length === 0
      ? ''
      : html`<details class="dropdown page-actions-more"><summary class="page-action" aria-label="${t.moreActions}" title="${t.moreActions}">${icon('chevronDown')}</summary><ul>${more.map((entry) => html`<li>${entryHtml(entry, settings)}</li>`)}</ul></details>`;
  return html`<div class="page-actions" role="group" aria-label="${t.pageActions}">${entryHtml(main, settings, 'page-action-main')}${rest}</div>`;
}

/**
 * Buttons need the page's script, so they start `hidden` and the script shows them: without
 * it, a visitor sees only links that work ("View as Markdown", the AI links).
 */
function entryHtml(entry: Entry, s: Settings, extra = ''): SafeHtml {
  const className = `page-action${extra === '' ? '' : ` ${extra}`}`;
  const inner = html`${icon(entry.icon)}<span>${entry.label}</span>`;
  if (entry.kind === 'link') {
    const href = attrUrl(entry.href);
    if (href === undefined) return html`<span class="${className}">${inner}</span>`;
    return html`<a class="${className}" href="${href}"${targetAttributes(entry.href, s)}>${inner}</a>`;
  }
  const data = [
    entry.href === undefined ? '' : html` data-href="${entry.href}"`,
    entry.done === undefined ? '' : html` data-done="${entry.done}"`,
  ];
  return html`<button type="button" class="${className}" data-action="${entry.action}"${data} hidden>${inner}</button>`;
}

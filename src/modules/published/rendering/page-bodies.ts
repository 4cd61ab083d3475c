import { TaskFailed, TaskTimedOut, type Workers } from '../../../workers/index.js';
import { pageTableOf } from '../../content/page-table.js';
import type { StoredPage } from '../../content/tree.js';
import { PAGE_BUDGET_MS } from '../highlighting/code-highlight.js';
import type { RenderLog } from '../service.js';
import type { BodyOf } from './page-answer.js';
import { plainBody } from './page-body.js';
import { type SiteFrame, variantBase } from './page-builder.js';
import { stringsFor } from './strings.js';

/**
 * The page bodies of a frame, rendered on a worker thread (page-body.ts). A body that takes
 * longer than RENDER_BUDGET_MS, or whose thread fails, is the page's text with a notice, logged,
 * and `shown.asText` says so (the service keeps such a page for a minute only); a full queue is
 * the 503 of load shedding (workers/pool.ts), never a long wait.
 */
export function bodiesOf(
  workers: Workers,
  frame: SiteFrame & { revisionId: string },
  log: RenderLog,
  shown: { asText: boolean } = { asText: false },
): BodyOf {
  const { settings } = frame;
  const budgetMs = workers.config.renderBudgetMs;
  return async (page: StoredPage, path: string) => {
    const markdown = page.markdown ?? '';
    try {
      return await workers.render.run(
        'pageBody',
        {
          markdown,
          title: page.title,
          path,
          ...(page.git === undefined ? {} : { file: page.git.path }),
          pages: pageTableOf(frame.revisionId, frame.tree, frame.revisionAssets),
          base: variantBase(frame.root, frame.variant),
          newTab: settings.externalLinks.target === 'blank',
          themes: settings.styling.codeTheme.default,
          highlightMs: Math.min(PAGE_BUDGET_MS, budgetMs / 2),
        },
        budgetMs,
      );
    } catch (error) {
      if (!(error instanceof TaskTimedOut || error instanceof TaskFailed)) throw error;
      log.warn(
        { err: error, pageId: page.id, spaceId: frame.variant.spaceId, bytes: markdown.length },
        'published page shown as its text: its body could not be rendered',
      );
      shown.asText = true;
      const t = stringsFor(settings.internationalization.locale);
      return plainBody(markdown, error instanceof TaskTimedOut ? t.pageTooLarge : t.pageFailed);
    }
  };
}

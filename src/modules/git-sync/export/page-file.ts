import { isMap, parseDocument, stringify } from 'yaml';
import type { StoredPage } from '../../content/tree.js';
import { documentToMarkdown, markdownToDocument, type PageLinks } from '../../documents/index.js';
import { splitPage, titleOf } from '../format/front-matter.js';
import { blobOid } from '../git-write.js';

/**
 * A page's file as GitBook's exporter writes it (docs/git-sync.md, "Export"): the front matter,
 * `# Title`, and the body in GitBook's canonical Markdown. A page whose body has not changed since
 * it was imported keeps its bytes as they are in the repository (a hand-written file is not
 * rewritten into the canonical form when nothing in it changed).
 */
export interface PageFileContext {
  /** The file the page is written to (from the repository's top). */
  file: string;
  /** What the stored Markdown's links resolve against (the page's revision, its own file). */
  readLinks: PageLinks;
  /** What links are written against: the files of the export. */
  writeLinks: PageLinks;
}

export function pageFileOf(page: StoredPage, context: PageFileContext): string {
  const markdown = page.markdown ?? '';
  const frontMatter = frontMatterOf(page);
  // Kept as written unless its title changed in Livery (the file's heading is the title).
  if (
    page.git !== undefined &&
    page.git.path === context.file &&
    (titleOf(markdown) ?? page.title) === page.title &&
    imported(page)
  ) {
    return assemble(frontMatter, markdown);
  }
  const doc = markdownToDocument(markdown, { title: page.title, ...context.readLinks });
  const body = documentToMarkdown(doc, context.writeLinks);
  // GitBook leaves a blank line between the front matter and the title.
  const title = `${frontMatter === undefined ? '' : '\n'}# ${page.title}\n`;
  return assemble(frontMatter, `${title}${body === '' ? '' : `\n${body}`}`);
}

/** A reusable content's file: its front matter as imported and its Markdown. */
export function includeFileOf(item: { markdown: string; frontMatter?: string }): string {
  return assemble(item.frontMatter, item.markdown);
}

/** Whether the page's Markdown is still the body of the blob it was imported from. */
function imported(page: StoredPage): boolean {
  return (
    page.git !== undefined &&
    blobOid(Buffer.from(assemble(page.frontMatter, page.markdown ?? ''), 'utf8')) === page.git.oid
  );
}

function assemble(frontMatter: string | undefined, body: string): string {
  return frontMatter === undefined ? body : `---\n${frontMatter}---\n${body}`;
}

/** The page fields front matter carries, as GitBook names them. */
interface Fields {
  description?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
}

function fieldsOf(page: StoredPage): Fields {
  return {
    ...(page.description === undefined || page.description === ''
      ? {}
      : { description: page.description }),
    ...(page.icon === undefined ? {} : { icon: page.icon }),
    ...(page.hidden === true ? { hidden: true } : {}),
    ...(page.noIndex === true ? { noIndex: true } : {}),
    ...(page.noRobotsIndex === true ? { noRobotsIndex: true } : {}),
  };
}

const KEYS = ['description', 'icon', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/**
 * The front matter to write: the imported block as it was when it still says what the page's
 * fields say; that block with the changed keys set or removed when a field changed in Livery
 * (comments and other generators' keys kept); a new block for a page made in Livery with fields.
 */
export function frontMatterOf(page: StoredPage): string | undefined {
  const wanted = fieldsOf(page);
  const raw = page.frontMatter;
  if (raw === undefined) {
    return Object.keys(wanted).length === 0 ? undefined : stringify(wanted, { lineWidth: 0 });
  }
  const had = splitPage(`---\n${raw}---\n`, '').frontMatter;
  const before: Fields = {
    ...(had.description === undefined || had.description === ''
      ? {}
      : { description: had.description }),
    ...(had.icon === undefined ? {} : { icon: had.icon }),
    ...(had.hidden === true ? { hidden: true } : {}),
    ...(had.noIndex === true ? { noIndex: true } : {}),
    ...(had.noRobotsIndex === true ? { noRobotsIndex: true } : {}),
  };
  if (KEYS.every((key) => before[key] === wanted[key])) return raw;
  const doc = parseDocument(raw);
  if (!isMap(doc.contents)) return stringify(wanted, { lineWidth: 0 });
  for (const key of KEYS) {
    if (before[key] === wanted[key]) continue;
    const value = wanted[key];
    if (value === undefined) doc.delete(key);
    else doc.set(key, value);
  }
  const text = doc.toString({ lineWidth: 0 });
  return text.trim() === '' || text.trim() === '{}' ? undefined : text;
}

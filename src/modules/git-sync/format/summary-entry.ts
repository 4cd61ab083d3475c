/**
 * A space's table of contents as read from its SUMMARY.md (summary.ts) or inferred from its
 * folders (infer-summary.ts). Files are normal paths relative to the space root (paths.ts).
 */
export type SummaryEntry = SummaryPage | SummaryGroup | SummaryLink | SummaryOpenApi;

/** A page of the revision, from one Markdown file. */
export interface SummaryPage {
  kind: 'page';
  /** The entry's text (SUMMARY link text; inferred: the file or folder name). */
  title: string;
  file: string;
  /** The link's quoted title (`[T](p.md "Link title")`): API `linkTitle`. */
  linkTitle?: string;
  /** SUMMARY line (1-based); 0 when inferred. */
  line: number;
  children: SummaryEntry[];
}

/** `## Title`: a top-level page group (API RevisionPageGroup). */
export interface SummaryGroup {
  kind: 'group';
  title: string;
  /** From the heading's `<a href="#slug" id="slug"></a>` anchor, when written. */
  slug?: string;
  line: number;
  children: SummaryEntry[];
}

/**
 * A link entry (API RevisionPageLink): an external URL (another space's pages included), or a
 * heading of a page of this space (`[Buttons](inline.md#buttons)`).
 */
export interface SummaryLink {
  kind: 'link';
  title: string;
  target: { kind: 'url'; url: string } | { kind: 'page'; file: string; anchor?: string };
  line: number;
}

/** A list item holding a ```` ```yaml ```` fence with `type: builtin:openapi`: computed pages. */
export interface SummaryOpenApi {
  kind: 'openapi';
  /** The fence's YAML text as written. */
  spec: string;
  line: number;
}

/** Every page entry of a tree, depth first, in reading order. */
export function* pagesOf(entries: readonly SummaryEntry[]): Generator<SummaryPage> {
  for (const entry of entries) {
    if (entry.kind === 'page') yield entry;
    if (entry.kind === 'page' || entry.kind === 'group') yield* pagesOf(entry.children);
  }
}

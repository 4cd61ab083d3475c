import type { SummaryEntry } from '../format/summary-entry.js';
import type { TocEntry, Warning } from './build-tree.js';

/**
 * The table of contents the tree is built from: the summary's entries, with the readme as the
 * first page when the summary does not list it (GitBook: the readme is the space's first page),
 * and the set of page files to read.
 */
export function tocOf(
  entries: readonly SummaryEntry[],
  readme: string,
  files: ReadonlySet<string>,
  warnings: Warning[],
  summaryFile: string,
): { entries: TocEntry[]; files: Set<string> } {
  const pageFiles = new Set<string>();
  const convert = (list: readonly SummaryEntry[]): TocEntry[] =>
    list.flatMap((entry): TocEntry[] => {
      switch (entry.kind) {
        case 'page':
          pageFiles.add(entry.file);
          return [
            {
              kind: 'page',
              title: entry.title,
              file: entry.file,
              line: entry.line,
              ...(entry.linkTitle === undefined ? {} : { linkTitle: entry.linkTitle }),
              children: convert(entry.children),
            },
          ];
        case 'group':
          return [
            {
              kind: 'group',
              title: entry.title,
              line: entry.line,
              ...(entry.slug === undefined ? {} : { slug: entry.slug }),
              children: convert(entry.children),
            },
          ];
        case 'link':
          return [
            entry.target.kind === 'url'
              ? { kind: 'link', title: entry.title, url: entry.target.url, line: entry.line }
              : {
                  kind: 'link',
                  title: entry.title,
                  file: entry.target.file,
                  ...(entry.target.anchor === undefined ? {} : { anchor: entry.target.anchor }),
                  line: entry.line,
                },
          ];
        default:
          warnings.push({
            file: summaryFile,
            line: entry.line,
            message:
              'an OpenAPI entry (pages computed from a registered specification): Livery has no registered specifications, so it makes no pages',
          });
          return [];
      }
    });
  const out = convert(entries);
  if (!pageFiles.has(readme) && files.has(readme)) {
    pageFiles.add(readme);
    out.unshift({ kind: 'page', title: 'Introduction', file: readme, line: 0, children: [] });
  }
  return { entries: out, files: pageFiles };
}

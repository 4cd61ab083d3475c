import { isMap, isScalar, parseDocument, type YAMLMap } from 'yaml';
import { badRequest } from '../../../errors.js';
import { type FormatWarning, join, resolveInside } from './paths.js';

/**
 * `.gitbook.yaml` as GitBook reads it (reference §1.2): `root`, `structure.readme`,
 * `structure.summary` and `redirects`, and nothing else. Paths are normal (paths.ts):
 * `root` relative to the project directory, every other path relative to `root`.
 *
 * A key GitBook would not see is not seen: keys are compared as written, so a key written with a
 * zero-width space before it (`\u200bstructure:`, seen in real repositories) is not `structure`
 * and GitBook's defaults apply, as they do on GitBook. Such keys get a warning naming them, since
 * the author surely meant the real key.
 */
export interface GitbookConfig {
  /** The space's root, relative to the project directory ('' = the project directory). */
  root: string;
  /** The first page's file, relative to `root`. */
  readme: string;
  /** The table of contents' file, relative to `root`. */
  summary: string;
  /** Old path (relative to root, no `.md`, no leading slash) → target file relative to root. */
  redirects: Map<string, string>;
  warnings: FormatWarning[];
}

export const GITBOOK_YAML = '.gitbook.yaml';

const defaults = (): GitbookConfig => ({
  root: '',
  readme: 'README.md',
  summary: 'SUMMARY.md',
  redirects: new Map(),
  warnings: [],
});

/**
 * Parses the file's text (undefined or empty: no file, GitBook's defaults). `file` names it in
 * warnings (its path in the repository). Invalid YAML gives GitBook's defaults and no redirects
 * (D3: "invalid YAML makes redirects silently fail"), with a warning naming the line.
 */
export function parseGitbookYaml(text: string | undefined, file = GITBOOK_YAML): GitbookConfig {
  const config = defaults();
  if (text === undefined || text.trim() === '') return config;
  const warn = (message: string, line?: number) =>
    config.warnings.push(line === undefined ? { file, message } : { file, line, message });
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = lineAt(text, error.pos[0]);
    warn(`invalid YAML (${error.code}), GitBook's defaults are used and no redirect`, line);
    return config;
  }
  const top = doc.contents;
  if (top === null || (isScalar(top) && top.value === null)) return config;
  if (!isMap(top)) {
    warn('the file is not a YAML mapping: ignored');
    return config;
  }
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? undefined : lineAt(text, offset);

  for (const pair of top.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const keyLine = lineOf(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
    const value = pair.value;
    if (key === 'root') {
      const root = stringOf(value);
      const resolved = root === undefined ? undefined : resolveInside('', root);
      if (resolved === undefined) warn('`root` is not a path inside the project: ignored', keyLine);
      else config.root = resolved;
    } else if (key === 'structure') {
      if (!isMap(value)) {
        warn('`structure` is not a mapping: ignored', keyLine);
        continue;
      }
      for (const name of ['readme', 'summary'] as const) {
        const path = pathOf(value, name);
        if (path === undefined) continue;
        if (path === null) warn(`\`structure.${name}\` is not a path inside the root`, keyLine);
        else config[name] = path;
      }
    } else if (key === 'redirects') {
      readRedirects(value, config.redirects, (message, offset) => warn(message, lineOf(offset)));
    } else {
      const shown = JSON.stringify(String(key));
      const hint = /\u200b|\ufeff|\u200c|\u200d|\u2060/.test(String(key))
        ? ' (it holds an invisible character)'
        : '';
      warn(`unknown key ${shown}${hint}: GitBook ignores it, so does Livery`, keyLine);
    }
  }
  return config;
}

/** The path of `structure.<name>`: undefined when absent, null when unusable. */
function pathOf(map: YAMLMap, name: string): string | null | undefined {
  if (!map.has(name)) return undefined;
  const raw = stringOf(map.get(name, true));
  if (raw === undefined) return null;
  return resolveInside('', raw) ?? null;
}

function readRedirects(
  value: unknown,
  into: Map<string, string>,
  warn: (message: string, offset?: number) => void,
): void {
  if (!isMap(value)) {
    if (!(isScalar(value) && value.value === null)) warn('`redirects` is not a mapping: ignored');
    return;
  }
  for (const pair of value.items) {
    const offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    const from = stringOf(pair.key);
    const to = stringOf(pair.value);
    if (from === undefined || to === undefined) {
      warn('a redirect is not a path → file pair: ignored', offset);
      continue;
    }
    // The old path is a URL path below the space: a leading slash or `.md` is forgiven.
    const source = resolveInside('', from.replace(/\.md$/, ''));
    // D3: a target starting with `/` does not work on GitBook; URLs are not files.
    const target =
      to.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(to) ? undefined : resolveInside('', to);
    if (source === undefined || source === '' || target === undefined || target === '') {
      warn(
        `redirect ${JSON.stringify(from)} → ${JSON.stringify(to)}: not a file of the root`,
        offset,
      );
      continue;
    }
    if (into.has(source))
      warn(`redirect ${JSON.stringify(from)} is given twice: first kept`, offset);
    else into.set(source, target);
  }
}

function stringOf(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  const value = node.value;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The import's `repoProjectDirectory` as a normal path ('' for none). It names a directory of the
 * repository, so `..` past the top, like any other escape, is refused (400, naming the field).
 */
export function projectDirectoryOf(value: string | undefined): string {
  if (value === undefined) return '';
  const resolved = resolveInside('', value);
  if (resolved === undefined) {
    throw badRequest('`repoProjectDirectory` must name a directory inside the repository');
  }
  return resolved;
}

/** The space root as a path from the repository's top. */
export function spaceRootOf(projectDirectory: string, config: GitbookConfig): string {
  return join(projectDirectory, config.root);
}

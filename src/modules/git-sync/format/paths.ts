/**
 * Repository paths as the format uses them: `/`-separated, relative to the repository's top, with
 * no `.` or `..` segments and no leading or trailing slash ('' is the top itself). Every path
 * that comes from the repository's own files (.gitbook.yaml, SUMMARY.md, links) goes through
 * `resolveInside`, so that none can name a file outside the directory it is meant to stay in.
 */

/** A warning about one file of the repository, with the line when there is one (1-based). */
export interface FormatWarning {
  file: string;
  line?: number;
  message: string;
}

/**
 * `relative` resolved against the directory `base` (already normal), or undefined when it climbs
 * above `limit` (a prefix of `base`; default `base`). Backslashes are separators, as on the
 * Windows machines some of these repositories are written on. A leading `/` starts from `limit`.
 */
export function resolveInside(base: string, relative: string, limit = base): string | undefined {
  const parts = relative.startsWith('/') ? split(limit) : split(base);
  for (const segment of relative.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.pop() === undefined) return undefined;
    } else {
      parts.push(segment);
    }
  }
  const joined = parts.join('/');
  return isInside(joined, limit) ? joined : undefined;
}

/** Whether `path` is `dir` or below it (both normal). */
export function isInside(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** `path` relative to `dir`, when it is inside it (both normal). */
export function relativeTo(path: string, dir: string): string {
  return dir === '' ? path : path === dir ? '' : path.slice(dir.length + 1);
}

/** The directory of a normal path ('' at the top). */
export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The last segment of a normal path. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `dir` and a normal `path` below it as one normal path. */
export function join(dir: string, path: string): string {
  return dir === '' ? path : path === '' ? dir : `${dir}/${path}`;
}

function split(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/**
 * A URL path segment from a title: lowercase ASCII letters, digits and single dashes, at most
 * `max` characters; `fallback` when nothing is left (e.g. a title of only emoji).
 */
export function slugify(title: string, fallback: string, max = 100): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `base`, or `base-2`, `base-3`, … : the first that is not taken. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>, max = 100): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, max - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

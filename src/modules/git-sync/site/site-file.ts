/**
 * The file that describes a whole site, at the top of the site's project directory. GitBook's
 * docs and its own repository name it `docs.yaml`; the description of its schema
 * (`GitSyncSiteConfig`, 0.202) says `gitbook-docs.yaml`. Both are read. When a directory has
 * both, `docs.yaml` (the name GitBook documents and uses) is read and the other is named in a
 * warning, not silently merged or refused: renaming one file is the fix either way.
 */
export const SITE_FILE = 'docs.yaml';
export const SITE_FILE_ALTERNATIVE = 'gitbook-docs.yaml';

export interface SiteFileChoice {
  name: string;
  /** The other name, present too and not read. */
  ignored?: string;
}

/** `names`: the file names at the top of the project directory. */
export function siteFileOf(names: ReadonlySet<string>): SiteFileChoice | undefined {
  if (names.has(SITE_FILE)) {
    return names.has(SITE_FILE_ALTERNATIVE)
      ? { name: SITE_FILE, ignored: SITE_FILE_ALTERNATIVE }
      : { name: SITE_FILE };
  }
  return names.has(SITE_FILE_ALTERNATIVE) ? { name: SITE_FILE_ALTERNATIVE } : undefined;
}

/**
 * Which file of a directory is its readme: GitBook's troubleshooting page (reference §3.1, D3)
 * lists `README.md`, `readme.md`, `Readme.md` and an extensionless `README`. Other spellings
 * (`README.markdown`, `READme.md`) are not readmes to GitBook, so not to Livery either.
 */
export const README_NAMES: readonly string[] = ['README.md', 'readme.md', 'Readme.md', 'README'];

/** Whether a file name (the last segment of a path) is a readme's. */
export function isReadmeName(name: string): boolean {
  return README_NAMES.includes(name);
}

/**
 * The readme among the names of one directory's files, or undefined. When several are there (a
 * case-sensitive file system allows it), the order of README_NAMES decides, so that the choice
 * does not depend on the order Git lists the files in.
 */
export function readmeOf(names: Iterable<string>): string | undefined {
  const present = new Set(names);
  return README_NAMES.find((name) => present.has(name));
}

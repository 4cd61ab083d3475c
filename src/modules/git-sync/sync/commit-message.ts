/**
 * A linked space's commit message (docs/git-sync.md, "Linking a repository"): the link's template
 * (GitBook's default `GITBOOK-{number}: {subject}`) filled with the latest change request merged
 * since the last sync; the others merged in the same commit listed under it, latest first.
 * Revisions that merged no change request: a fixed message. Pure.
 */
export interface Merged {
  number: number;
  subject: string;
}

export const NO_CHANGE_REQUEST = 'Livery: edits of the space';

export function commitMessageOf(template: string, merged: readonly Merged[]): string {
  const [latest, ...earlier] = merged;
  if (latest === undefined) return NO_CHANGE_REQUEST;
  const fill = (m: Merged) =>
    template
      .replaceAll('{number}', String(m.number))
      .replaceAll('{subject}', m.subject.trim() === '' ? 'No subject' : m.subject.trim());
  const first = fill(latest);
  return earlier.length === 0
    ? first
    : `${first}\n\nAlso:\n${earlier.map((m) => `- ${fill(m)}`).join('\n')}`;
}

/**
 * What someone else changed since the editor loaded: history's compare from the revision that
 * produced the editor's ETag to the newest one. A variant's ETag is "c<defaults>.<site version>.
 * <override version>": its override and its site each have their own history, so a 412 on a
 * variant can come from either, or both.
 */
import { compareRevisions, getRevision, listRevisions } from '../../api/history';
import type { EditorTarget, FieldChange } from '../../state/editor';
import { readableChanges } from './readable';

export interface OtherChanges {
  title: string;
  changes: FieldChange[];
  knowsBefore: boolean;
}

const versions = (etag: string) => etag.replace(/^W\//, '').replace(/"/g, '').split('.');

/** Changes to `target`'s own history since the revision whose ETag `matches`. */
async function changesSince(
  target: EditorTarget,
  matches: (revisionEtag: string) => boolean,
  title: string,
): Promise<OtherChanges> {
  const revisions = await listRevisions(target, 1000);
  const latest = revisions[0];
  const from = revisions.find((revision) => matches(revision.etag));
  if (latest === undefined) return { title, changes: [], knowsBefore: false };
  if (from === undefined) {
    // The revision we started from was pruned (or predates history): show the newest change only.
    return {
      title: `${title} (the newest change; earlier ones are no longer in the history)`,
      changes: readableChanges(latest.changes),
      knowsBefore: false,
    };
  }
  if (from.number === latest.number) return { title, changes: [], knowsBefore: true };
  const [patch, base] = await Promise.all([
    compareRevisions(target, from.number, latest.number),
    getRevision(target, from.number),
  ]);
  return { title, changes: readableChanges(patch, base.settings ?? {}), knowsBefore: true };
}

export async function otherChanges(
  target: EditorTarget,
  staleEtag: string,
  freshEtag: string,
): Promise<OtherChanges[]> {
  const [defaults, site, override] = versions(staleEtag);
  const fresh = versions(freshEtag);
  const siteTarget = { organizationId: target.organizationId, siteId: target.siteId };
  const sameSite = (etag: string) => {
    const [d, s] = versions(etag);
    return d === defaults && s === site;
  };
  if (target.siteSpaceId === undefined) {
    return [await changesSince(siteTarget, sameSite, 'Site settings')];
  }
  const found: Promise<OtherChanges>[] = [];
  if (fresh[2] !== override) {
    found.push(
      changesSince(target, (etag) => versions(etag)[2] === override, "This variant's overrides"),
    );
  }
  if (fresh[1] !== site) {
    found.push(
      changesSince(siteTarget, sameSite, "The site's settings (this variant inherits them)"),
    );
  }
  return Promise.all(found);
}

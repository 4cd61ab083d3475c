/**
 * Hash routes, so the server needs no fallback route:
 *   #/  ·  #/orgs/{org}  ·  #/orgs/{org}/sites/{site}  ·  #/orgs/{org}/sites/{site}/variants/{siteSpaceId}
 *   ·  #/orgs/{org}/sites/{site}/structure
 * A leave guard (unsaved edits) can hold a navigation until the user confirms it.
 */
import { signal } from '@preact/signals';

export type Route =
  | { name: 'orgs' }
  | { name: 'sites'; org: string }
  | {
      name: 'site';
      org: string;
      site: string;
      siteSpaceId?: string;
      structure?: true;
      insights?: true;
    };

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#?\/?/, '')
    .split('/')
    .filter(Boolean)
    .map(decodeURIComponent);
  const [orgs, org, sites, site, variants, siteSpaceId] = parts;
  if (orgs !== 'orgs' || org === undefined) return { name: 'orgs' };
  if (sites !== 'sites' || site === undefined) return { name: 'sites', org };
  if (variants === 'structure') return { name: 'site', org, site, structure: true };
  if (variants === 'insights') return { name: 'site', org, site, insights: true };
  if (variants !== 'variants' || siteSpaceId === undefined) return { name: 'site', org, site };
  return { name: 'site', org, site, siteSpaceId };
}

export function hrefOf(route: Route): string {
  const e = encodeURIComponent;
  if (route.name === 'orgs') return '#/';
  if (route.name === 'sites') return `#/orgs/${e(route.org)}`;
  const site = `#/orgs/${e(route.org)}/sites/${e(route.site)}`;
  if (route.structure === true) return `${site}/structure`;
  if (route.insights === true) return `${site}/insights`;
  return route.siteSpaceId === undefined ? site : `${site}/variants/${e(route.siteSpaceId)}`;
}

export const route = signal<Route>(parseRoute(location.hash));
/** What a guarded navigation (or sign-out) will do once the user confirms leaving. */
export const pendingLeave = signal<(() => void) | null>(null);

let guard: (() => boolean) | null = null;
/** While `blocks()` is true, navigating away asks first (see `pendingLeave`); answers its removal. */
export function setLeaveGuard(blocks: () => boolean): () => void {
  guard = blocks;
  return () => {
    if (guard === blocks) guard = null;
  };
}

let current = location.hash;
addEventListener('hashchange', () => {
  if (guard?.() && location.hash !== current) {
    const wanted = location.hash;
    pendingLeave.value = () => {
      location.hash = wanted;
    };
    // Put the address back without a second hashchange; the confirmed leave goes there again.
    history.replaceState(null, '', current || '#/');
    return;
  }
  current = location.hash;
  route.value = parseRoute(current);
});

/** Runs `leave` now, or after the user confirms when the guard blocks (unsaved edits). */
export function whenLeaving(leave: () => void): void {
  if (guard?.()) pendingLeave.value = leave;
  else leave();
}

/** The user confirmed: drop the edits and go. */
export function confirmLeave(): void {
  const leave = pendingLeave.value;
  pendingLeave.value = null;
  guard = null;
  leave?.();
}

/** Replaces the current address (no history entry), e.g. skipping a list with one item. */
export function replaceRoute(next: Route): void {
  history.replaceState(null, '', hrefOf(next));
  current = location.hash;
  route.value = next;
}

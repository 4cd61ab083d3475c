/** The two list screens of navigation: organizations, then an organization's sites. */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { getOrganization, listOrganizations, listSites } from '../../api/sites';
import { hrefOf, replaceRoute } from '../../router';
import { Nav } from '../Nav';
import { NewSite } from '../NewSite';
import { type Async, useAsync } from './useAsync';

function Loading<T>({
  state,
  children,
}: {
  state: Async<T>;
  children: (value: T) => ComponentChildren;
}) {
  if (state.status === 'loading')
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  if (state.status === 'failed')
    return (
      <p class="error" role="alert">
        {state.error}
      </p>
    );
  return <>{children(state.value)}</>;
}

export function OrganizationList() {
  const orgs = useAsync(listOrganizations, []);
  // One organization: nothing to choose, go straight to its sites.
  useEffect(() => {
    const only = orgs.status === 'done' && orgs.value.length === 1 ? orgs.value[0] : undefined;
    if (only !== undefined) replaceRoute({ name: 'sites', org: only.id });
  }, [orgs]);
  return (
    <>
      <Nav crumbs={[{ label: 'Organizations' }]} />
      <main class="page" data-testid="organizations">
        <h1>Organizations</h1>
        <Loading state={orgs}>
          {(items) =>
            items.length === 0 ? (
              <p class="muted">You are not a member of any organization.</p>
            ) : (
              <ul class="cards">
                {items.map((org) => (
                  <li key={org.id}>
                    <a class="card card-link" href={hrefOf({ name: 'sites', org: org.id })}>
                      {org.title}
                    </a>
                  </li>
                ))}
              </ul>
            )
          }
        </Loading>
      </main>
    </>
  );
}

export function SiteList({ org }: { org: string }) {
  const organization = useAsync(() => getOrganization(org), [org]);
  const sites = useAsync(() => listSites(org), [org]);
  const title = organization.status === 'done' ? organization.value.title : 'Organization';
  return (
    <>
      <Nav crumbs={[{ label: 'Organizations', href: '#/' }, { label: title }]} />
      <main class="page" data-testid="sites">
        <h1>Sites of {title}</h1>
        <Loading state={sites}>
          {(items) =>
            items.length === 0 ? (
              <>
                <p class="muted">This organization has no site yet.</p>
                <NewSite
                  org={org}
                  onCreated={(site) => replaceRoute({ name: 'site', org, site })}
                />
              </>
            ) : (
              <ul class="cards">
                {items.map((site) => (
                  <li key={site.id}>
                    <a class="card card-link" href={hrefOf({ name: 'site', org, site: site.id })}>
                      <strong>{site.title}</strong>
                      <span class="muted">
                        {site.published ? 'Published' : 'Not published'} · {site.visibility} ·{' '}
                        {site.siteSpaces === 1 ? '1 variant' : `${site.siteSpaces} variants`}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )
          }
        </Loading>
      </main>
    </>
  );
}

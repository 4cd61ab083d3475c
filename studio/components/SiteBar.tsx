import { useSignal } from '@preact/signals';
import type { Abilities } from '../api/session';
import {
  SITE_VISIBILITIES,
  type Site,
  type SiteSpace,
  setPublished,
  setVisibility,
  type Visibility,
} from '../api/sites';
import { hrefOf } from '../router';

interface SiteBarProps {
  org: string;
  site: Site;
  siteSpaces: SiteSpace[];
  /** the open variant, or undefined for the site's settings */
  siteSpaceId: string | undefined;
  /** The structure screen is open. */
  structure?: boolean;
  /** The insights screen is open. */
  insights?: boolean;
  abilities: Abilities;
  onSite: (site: Site) => void;
}

const reasonOf = (abilities: Abilities, operation: string) => {
  const can = abilities.can[operation];
  return can === true ? null : (can ?? 'Not allowed');
};

/** The site's published state, visibility and public URL, with their controls; then its variants. */
export function SiteBar({
  org,
  site,
  siteSpaces,
  siteSpaceId,
  structure = false,
  insights = false,
  abilities,
  onSite,
}: SiteBarProps) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const publishRefused = reasonOf(abilities, site.published ? 'unpublishSite' : 'publishSite');
  const visibilityRefused = reasonOf(abilities, 'updateSiteById');

  /** Applies a change to the site; false when it was refused (the error is shown). */
  async function change(write: () => Promise<Site>): Promise<boolean> {
    busy.value = true;
    error.value = null;
    try {
      onSite(await write());
      return true;
    } catch (failure) {
      error.value = failure instanceof Error ? failure.message : String(failure);
      return false;
    } finally {
      busy.value = false;
    }
  }

  return (
    <section class="sitebar" aria-label="Site" data-testid="sitebar">
      <div class="sitebar-row">
        <h1 class="site-title">{site.title}</h1>
        <span class={site.published ? 'badge badge-ok' : 'badge'} data-testid="published-state">
          {site.published ? 'Published' : 'Not published'}
        </span>
        {site.urls.published !== undefined && (
          <a
            class="site-url"
            href={site.urls.published}
            target="_blank"
            rel="noopener"
            data-testid="public-url"
          >
            {site.urls.published}
            <span class="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
        <div class="sitebar-controls">
          <label class="inline-field">
            <span>Visibility</span>
            <select
              data-testid="visibility"
              value={site.visibility}
              disabled={busy.value || visibilityRefused !== null}
              title={visibilityRefused ?? undefined}
              onChange={(event) => {
                const select = event.currentTarget;
                const visibility = select.value as Visibility;
                void change(() => setVisibility(org, site.id, visibility)).then((done) => {
                  // A refused change leaves the select showing what the site really has.
                  if (!done) select.value = site.visibility;
                });
              }}
            >
              {SITE_VISIBILITIES.map((visibility) => (
                <option key={visibility} value={visibility}>
                  {visibility}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class={site.published ? 'button' : 'button button-primary'}
            data-testid={site.published ? 'unpublish' : 'publish'}
            disabled={busy.value || publishRefused !== null}
            title={publishRefused ?? undefined}
            onClick={() => void change(() => setPublished(org, site.id, !site.published))}
          >
            {site.published ? 'Unpublish' : 'Publish'}
          </button>
        </div>
      </div>
      {(publishRefused ?? visibilityRefused) !== null && (
        <p class="muted small" data-testid="site-controls-refused">
          {publishRefused ?? visibilityRefused}
        </p>
      )}
      {error.value !== null && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <nav class="variants" aria-label="Site settings and variants">
        <ul>
          <li>
            <a
              href={hrefOf({ name: 'site', org, site: site.id })}
              aria-current={
                siteSpaceId === undefined && !structure && !insights ? 'page' : undefined
              }
              data-testid="site-settings-link"
            >
              Site settings
            </a>
          </li>
          <li>
            <a
              href={hrefOf({ name: 'site', org, site: site.id, structure: true })}
              aria-current={structure ? 'page' : undefined}
              data-testid="structure-link"
            >
              Structure
            </a>
          </li>
          <li>
            <a
              href={hrefOf({ name: 'site', org, site: site.id, insights: true })}
              aria-current={insights ? 'page' : undefined}
              data-testid="insights-link"
            >
              Insights
            </a>
          </li>
          {siteSpaces.map((siteSpace) => (
            <li key={siteSpace.id}>
              <a
                href={hrefOf({ name: 'site', org, site: site.id, siteSpaceId: siteSpace.id })}
                aria-current={siteSpaceId === siteSpace.id ? 'page' : undefined}
                data-testid={`variant-${siteSpace.id}`}
              >
                {siteSpace.title}
                {siteSpace.default && <span class="badge badge-small">default</span>}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}

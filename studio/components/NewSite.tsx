import { useSignal } from '@preact/signals';
import { ApiError } from '../api/client';
import { createSite } from '../api/new-site';

/**
 * For an organization without a site (a new user's first visit): a site with one variant per
 * language, each with a first page, published at once, so there is something to customize.
 */
export function NewSite({ org, onCreated }: { org: string; onCreated: (siteId: string) => void }) {
  const title = useSignal('Docs');
  const variants = useSignal('English, Deutsch');
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const names = variants.value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (names.length === 0) {
      error.value = 'Name at least one variant (a language, a version…)';
      return;
    }
    busy.value = true;
    error.value = null;
    try {
      onCreated(await createSite(org, { title: title.value.trim(), variants: names }));
    } catch (failure) {
      error.value = failure instanceof ApiError ? failure.message : String(failure);
    } finally {
      busy.value = false;
    }
  };

  return (
    <form class="card sign-in-card" onSubmit={submit} data-testid="new-site">
      <h2>Create a site</h2>
      <p class="muted">
        One variant per name below, each with a first page; the site is published at once.
      </p>
      <label for="new-site-title">Site title</label>
      <input
        id="new-site-title"
        required
        minLength={2}
        maxLength={100}
        value={title.value}
        onInput={(event) => {
          title.value = event.currentTarget.value;
        }}
      />
      <label for="new-site-variants">Variants (comma-separated; the first is the default)</label>
      <input
        id="new-site-variants"
        required
        value={variants.value}
        onInput={(event) => {
          variants.value = event.currentTarget.value;
        }}
      />
      {error.value !== null && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <button
        type="submit"
        class="button button-primary"
        data-testid="create-site"
        disabled={busy.value}
      >
        {busy.value ? 'Creating…' : 'Create and publish'}
      </button>
    </form>
  );
}

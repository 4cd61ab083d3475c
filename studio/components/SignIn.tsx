import { useSignal } from '@preact/signals';
import { signIn } from '../state/session';

/** Paste an API token once; the server exchanges it for an HttpOnly session cookie. */
export function SignIn({ notice }: { notice?: string | undefined }) {
  const token = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  async function submit(event: Event) {
    event.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      await signIn(token.value.trim());
    } catch (failure) {
      error.value = failure instanceof Error ? failure.message : String(failure);
      busy.value = false;
    }
  }

  return (
    <main class="sign-in" data-testid="sign-in-screen">
      <form class="card sign-in-card" onSubmit={submit}>
        <h1>Livery Studio</h1>
        <p>
          Sign in with an API token of your Livery user. It is exchanged for a session once and not
          kept in the browser.
        </p>
        {notice !== undefined && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          placeholder="gb_…"
          data-testid="token"
          value={token.value}
          onInput={(event) => {
            token.value = event.currentTarget.value;
          }}
          aria-invalid={error.value !== null}
          aria-describedby={error.value === null ? undefined : 'sign-in-error'}
        />
        {error.value !== null && (
          <p id="sign-in-error" class="error" role="alert">
            {error.value}
          </p>
        )}
        <button
          type="submit"
          class="button button-primary"
          data-testid="sign-in"
          disabled={busy.value}
        >
          {busy.value ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

import type { ComponentChildren } from 'preact';
import { whenLeaving } from '../router';
import { session, signOut } from '../state/session';

export interface Crumb {
  label: string;
  href?: string;
}

/** The top bar: where you are (each level a link), who you are, sign-out. */
export function Nav({ crumbs, children }: { crumbs: Crumb[]; children?: ComponentChildren }) {
  const state = session.value;
  const user = state.status === 'signed-in' ? state.session.user : null;
  return (
    <header class="topbar" data-testid="topbar">
      <a class="brand" href="#/" aria-label="Livery Studio: organizations">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M4 5h16v3H4zM4 10.5h10v3H4zM4 16h13v3H4z" fill="currentColor" />
        </svg>
        <span>Studio</span>
      </a>
      <nav aria-label="Breadcrumb" class="crumbs">
        <ol>
          {crumbs.map((crumb, index) => (
            <li key={crumb.label}>
              {crumb.href !== undefined && index < crumbs.length - 1 ? (
                <a href={crumb.href}>{crumb.label}</a>
              ) : (
                <span aria-current={index === crumbs.length - 1 ? 'page' : undefined}>
                  {crumb.label}
                </span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div class="topbar-end">
        {children}
        {user !== null && (
          <span class="user" title={user.email ?? user.id}>
            {user.displayName}
          </span>
        )}
        <button
          type="button"
          class="button"
          data-testid="sign-out"
          onClick={() => whenLeaving(() => void signOut())}
        >
          Sign out
        </button>
      </div>
    </header>
  );
}

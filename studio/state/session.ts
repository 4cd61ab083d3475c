/**
 * Who is signed in. The studio starts by asking GET /studio/session; sign-in exchanges a pasted
 * API token for the session cookie; any 401 from the API ends the session on the client too.
 * Abilities (what the user may do, with the API's reasons) are asked once per organization.
 */
import { signal } from '@preact/signals';
import { setCsrfToken, whenUnauthorized } from '../api/client';
import {
  type Abilities,
  createSession,
  deleteSession,
  readAbilities,
  readSession,
  type SignedIn,
} from '../api/session';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; notice?: string }
  | { status: 'signed-in'; session: SignedIn };

export const session = signal<SessionState>({ status: 'loading' });

const abilities = new Map<string, Promise<Abilities>>();

export function abilitiesOf(organizationId: string): Promise<Abilities> {
  let answer = abilities.get(organizationId);
  if (answer === undefined) {
    answer = readAbilities(organizationId);
    // A failed read is asked again next time rather than cached.
    answer.catch(() => abilities.delete(organizationId));
    abilities.set(organizationId, answer);
  }
  return answer;
}

function signedOut(notice?: string): void {
  abilities.clear();
  session.value =
    notice === undefined ? { status: 'signed-out' } : { status: 'signed-out', notice };
}

/** Reads the session (and a fresh CSRF token), e.g. at start and after it ended. */
export async function startSession(notice?: string): Promise<void> {
  const answer = await readSession();
  setCsrfToken(answer.csrfToken);
  if (answer.signedIn) session.value = { status: 'signed-in', session: answer };
  else signedOut(notice);
}

/** Throws the API's error (400, 401) for the sign-in form to show. */
export async function signIn(token: string): Promise<void> {
  const answer = await createSession(token);
  setCsrfToken(answer.csrfToken);
  session.value = { status: 'signed-in', session: answer };
}

export async function signOut(): Promise<void> {
  try {
    await deleteSession();
  } finally {
    signedOut();
    await startSession().catch(() => undefined);
  }
}

whenUnauthorized(() => {
  // A refused sign-in is also a 401: the sign-in form shows that one itself.
  if (session.value.status !== 'signed-in') return;
  signedOut('Your session ended; sign in again.');
  void startSession('Your session ended; sign in again.').catch(() => undefined);
});

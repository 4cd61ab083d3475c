/** The studio's session (outside /v1): who is signed in, sign-in with an API token, sign-out, abilities. */
import { api } from './client';

export interface SessionUser {
  id: string;
  displayName: string;
  email?: string;
}

export type SessionAnswer =
  | { signedIn: false; csrfToken: string }
  | {
      signedIn: true;
      csrfToken: string;
      user: SessionUser;
      token: { id: string; scopes: string[] | null };
      expiresAt: string;
    };

export type SignedIn = Extract<SessionAnswer, { signedIn: true }>;

/** `true`, or the reason the API would refuse (its own 403 text). */
export type Ability = true | string;

export interface Abilities {
  role: string | null;
  can: Record<string, Ability>;
}

export const readSession = async () => (await api.get<SessionAnswer>('/studio/session')).body;

export const createSession = async (token: string) =>
  (await api.post<SignedIn>('/studio/session', { token })).body;

export const deleteSession = async () => {
  await api.delete<undefined>('/studio/session');
};

export const readAbilities = async (organizationId: string) =>
  (await api.get<Abilities>(`/studio/orgs/${encodeURIComponent(organizationId)}/abilities`)).body;

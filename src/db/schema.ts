/**
 * Row types of Livery's tables, as Kysely sees them. Types are chosen to be identical on every
 * dialect: timestamps are ISO-8601 UTC strings, booleans are 0/1 integers and JSON documents are
 * text, so queries and repositories never branch on the dialect.
 */
export interface DatabaseSchema {
  organizations: OrganizationRow;
  users: UserRow;
  memberships: MembershipRow;
  api_tokens: ApiTokenRow;
  spaces: SpaceRow;
  sites: SiteRow;
  site_spaces: SiteSpaceRow;
}

export interface OrganizationRow {
  id: string;
  title: string;
  created_at: string;
}

export interface UserRow {
  id: string;
  display_name: string;
  email: string | null;
  created_at: string;
}

export interface MembershipRow {
  organization_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export interface ApiTokenRow {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface SpaceRow {
  id: string;
  organization_id: string;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: string;
  revision_id: string;
  created_at: string;
  updated_at: string;
}

export interface SiteRow {
  id: string;
  organization_id: string;
  title: string;
  type: string;
  visibility: string;
  published: number;
  basename: string | null;
  agents_context: string;
  created_at: string;
  updated_at: string;
  /** The complete customization settings (JSON), or null while the site was never customized. */
  customization: string | null;
  /** Bumped on every change of `customization`; never reset, so ETags never repeat. */
  customization_version: number;
  customization_updated_at: string | null;
}

export interface SiteSpaceRow {
  id: string;
  site_id: string;
  space_id: string;
  path: string;
  is_default: number;
  /** Order of the variants in their site: 1, 2, … */
  position: number;
  created_at: string;
  /** The sparse customization override (JSON), or null when the variant has none. */
  override: string | null;
  /** Bumped on every change of `override`, including its removal; never reset. */
  override_version: number;
  override_updated_at: string | null;
}

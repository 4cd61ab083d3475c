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
  site_sections: SiteSectionRow;
  site_section_groups: SiteSectionGroupRow;
  site_external_links: SiteExternalLinkRow;
  site_share_links: ShareLinkRow;
  site_publishing_auth: PublishingAuthRow;
  site_events: SiteEventRow;
  teams: TeamRow;
  team_members: TeamMemberRow;
  invites: InviteRow;
  idempotency_keys: IdempotencyKeyRow;
  revisions: RevisionRow;
  page_nodes: PageNodeRow;
  page_bodies: PageBodyRow;
  change_requests: ChangeRequestRow;
  page_feedbacks: PageFeedbackRow;
  page_view_days: PageViewDayRow;
  site_token_keys: SiteTokenKeyRow;
  customization_revisions: CustomizationRevisionRow;
  audit_log: AuditLogRow;
  studio_sessions: StudioSessionRow;
  server_secrets: ServerSecretRow;
  file_blobs: FileBlobRow;
  content_sets: ContentSetRow;
  git_sync: GitSyncRow;
  site_git_sync: SiteGitSyncRow;
  git_links: GitLinkRow;
  git_branch_previews: GitBranchPreviewRow;
  change_request_previews: ChangeRequestPreviewRow;
  site_redirects: SiteRedirectRow;
  storage_uploads: StorageUploadRow;
  storage_objects: StorageObjectRow;
  custom_fonts: CustomFontRow;
  site_insight_events: SiteInsightEventRow;
}

/** A Livery Studio session (docs/studio.md): only the hash of its secret is stored. */
export interface StudioSessionRow {
  id_hash: string;
  token_id: string;
  created_at: string;
  expires_at: string;
}

/** A key every server of the database shares (e.g. `studio-csrf`, the HMAC key of CSRF tokens). */
export interface ServerSecretRow {
  name: string;
  secret: string;
  created_at: string;
}

/** A key that signs site tokens (modules/site-tokens); retired keys still verify until expiry. */
/**
 * One change of a site's customization or of a variant's override (docs/history.md), recorded in
 * the transaction of the change. Numbered 1, 2, … per `scope`; numbers are never reused.
 */
export interface CustomizationRevisionRow {
  /** The site's id (site revisions) or the site-space's id (variant revisions). */
  scope: string;
  number: number;
  created_at: string;
  /** null: recorded by the migration that introduced history, for a change made before it. */
  actor_user_id: string | null;
  actor_token_id: string | null;
  operation: 'put' | 'patch' | 'delete' | 'restore';
  etag: string;
  /** The stored document after the change (JSON): settings, an override, or null (no override). */
  document: string | null;
  /** JSON Patch (RFC 6902) from the previous revision's document to this one's. */
  changes: string;
  restored_from: number | null;
  /** Why, when not a person's request (a site import: the commit); migration 0022. */
  message?: string | null | undefined;
}

/** Who did what to an organization's sites and people (docs/history.md). */
export interface AuditLogRow {
  id: string;
  organization_id: string;
  at: string;
  actor_user_id: string;
  actor_token_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  /** JSON object: what changed, never a secret. */
  details: string;
}

export interface SiteTokenKeyRow {
  id: string;
  secret: string;
  created_at: string;
  retired_at: string | null;
}

/** An immutable snapshot of a space's pages (docs/content.md). */
export interface RevisionRow {
  id: string;
  space_id: string;
  type: 'edits' | 'merge' | 'update';
  /** JSON array of revision ids; the first is the one this revision was made from. */
  parents: string;
  merged_from: string | null;
  /** JSON array of the node hashes of the top-level pages (page_nodes; content/storage/). */
  page_nodes: string;
  /** JSON array of the page ids changed from parents[0] (merges compare them). */
  touched: string;
  created_by: string | null;
  created_at: string;
  /** The commit it was imported from (JSON GitSyncCommit), or null (docs/git-sync.md). */
  git: string | null;
  /** Its files and reusable contents: content_sets hashes, or null for none. */
  files: string | null;
  reusable_contents: string | null;
  /** `.gitbook.yaml`'s redirects, JSON: old path → page id; null: none. */
  redirects: string | null;
}

/** The bytes of a revision file, keyed by their SHA-256 (docs/git-sync.md). */
export interface FileBlobRow {
  hash: string;
  size: number;
  data: Buffer;
}

/** A revision's list of files or reusable contents (canonical JSON), keyed by its hash. */
export interface ContentSetRow {
  space_id: string;
  hash: string;
  json: string;
}

/** A space's repository and its latest Git Sync operation (docs/git-sync.md). */
export interface GitSyncRow {
  space_id: string;
  url: string;
  ref: string;
  project_directory: string | null;
  tree_url: string | null;
  commit_url: string | null;
  state: 'running' | 'success' | 'failure' | 'timeout';
  direction: 'import' | 'export';
  started_at: string;
  ended_at: string | null;
  error: string | null;
  warnings: string;
  commit_oid: string | null;
  timestamp: string | null;
  owner: string | null;
  lease_until: string | null;
  updated_at: string;
  /** The space's revision `commit_oid` holds: where both sides last agreed (migration 0017). */
  revision_id: string | null;
  /** JSON array of the repository paths the space owned then. */
  owned_paths: string | null;
  /** JSON GitSyncConflict of the last sync where both sides changed one file. */
  conflict: string | null;
}

/** A site's repository and its latest site Git Sync operation (migration 0022). */
export type SiteGitSyncRow = Omit<
  GitSyncRow,
  'space_id' | 'revision_id' | 'owned_paths' | 'conflict'
> & { site_id: string };

/** A space linked to a repository's branch (two-way Git Sync, docs/git-sync.md). */
export interface GitLinkRow {
  space_id: string;
  url: string;
  url_secret: string | null;
  ref: string;
  project_directory: string | null;
  priority: 'git' | 'livery';
  commit_template: string;
  author_name: string | null;
  author_email: string | null;
  preview_branches: number;
  poll_seconds: number;
  webhook_secret: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  polled_at: string | null;
}

/** A branch of a linked repository imported as a change request (a preview). */
export interface GitBranchPreviewRow {
  space_id: string;
  branch: string;
  change_request_id: string;
  commit_oid: string;
  updated_at: string;
}

/**
 * A page of some revisions of a space, without its body: canonical JSON of its fields, its body's
 * hash and its children's node hashes, keyed by the hash of that text (content/storage/node.ts).
 */
export interface PageNodeRow {
  space_id: string;
  hash: string;
  node: string;
}

/** A page body (Markdown) of a space, keyed by the hash of its text. */
export interface PageBodyRow {
  space_id: string;
  hash: string;
  markdown: string;
}

/** A change request's preview link (docs/change-request-previews.md). */
export interface ChangeRequestPreviewRow {
  id: string;
  space_id: string;
  change_request_id: string;
  /** What the link is for, e.g. the Git branch it previews. */
  label: string | null;
  created_by: string | null;
  created_at: string;
  closed_at: string | null;
  closed_reason: string | null;
}

export interface ChangeRequestRow {
  id: string;
  space_id: string;
  number: number;
  status: 'draft' | 'open' | 'archived' | 'merged';
  subject: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
}

export interface PageFeedbackRow {
  space_id: string;
  page_id: string;
  visitor_id: string;
  rating: 'good' | 'ok' | 'bad';
  revision_id: string;
  created_at: string;
  updated_at: string;
}

/** Views of a page on one day (UTC). */
export interface PageViewDayRow {
  space_id: string;
  page_id: string;
  /** YYYY-MM-DD */
  day: string;
  views: number;
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
  /** JSON array of scope names, or null: the token has all of its user's rights. */
  scopes: string | null;
  /** After this time the token is refused; null: it does not expire. */
  expires_at: string | null;
  /** Last use, recorded at most once a minute. */
  last_used_at: string | null;
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
  /** An absolute URL of the space's icon, or null (a space has an emoji or an icon). */
  icon: string | null;
  /** The language set explicitly (a TranslationLanguage), or null: derived from its variants. */
  language: string | null;
  /** When deleteSpaceById put it in the trash (migration 0028); null or absent: a live space. */
  deleted_at?: string | null | undefined;
  /**
   * Its sort key among its organization's spaces (migration 0029, spaces/order.ts): a new space's
   * is `<created_at>/<id>`, so it goes last; moveSpace deals the keys out again.
   */
  position: string;
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
  /** Proxy origin (`company.com/docs`), or null. */
  proxy: string | null;
  /** Custom hostname (`docs.acme.com`, lower case; unique across organizations), or null. */
  hostname: string | null;
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
  /** Visitor condition expression, or null. */
  condition: string | null;
  /** The variant's own title (addSpaceToSite's `title`), or null: the space's title. */
  title: string | null;
  /** 1: left out of the published site's variant switcher (still served at its address). */
  hidden: number;
  /** The section the variant belongs to; null in a site without sections. */
  section_id: string | null;
  /** Its stable key in a Git Sync docs.yaml, or null (unique per site across structure nodes). */
  git_key: string | null;
  /** JSON object language → title (GitBook's LocalizedString128), or null. */
  localized_title: string | null;
  /** 1: a draft variant (docs/sites.md). */
  draft: number;
}

/** What every node of a site's structure has (sections, section groups, external links). */
export interface SiteStructureNodeRow {
  id: string;
  site_id: string;
  title: string;
  /** JSON object language → text, or null. */
  localized_title: string | null;
  description: string | null;
  /** JSON object language → text, or null. */
  localized_description: string | null;
  icon: string | null;
  draft: number;
  /** Order among its siblings (same parent_group_id), across the three node tables. */
  position: number;
  /** The section group holding it; null at the site's root. */
  parent_group_id: string | null;
  /** Its stable key in a Git Sync docs.yaml, or null (unique per site across structure nodes). */
  git_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionRow extends SiteStructureNodeRow {
  /** URL segment of the section, unique in its site. */
  path: string;
  /** 1 for the site's one default section (served without its path segment). */
  is_default: number;
}

export type SiteSectionGroupRow = SiteStructureNodeRow;

export interface SiteExternalLinkRow extends SiteStructureNodeRow {
  url: string;
}

export interface ShareLinkRow {
  id: string;
  site_id: string;
  name: string;
  active: number;
  /** Hex SHA-256 of the share key; the key is shown only in the creation response. */
  key_hash: string;
  created_at: string;
  updated_at: string;
}

/** Visitor-authentication settings of a site, created on first read. */
export interface PublishingAuthRow {
  site_id: string;
  backend: string;
  /** HS256 secret that signs visitor JWTs; the API shows it to the site's admins by design. */
  private_key: string;
  fallback_url: string | null;
  /** Where a visitor signing out is sent (the upstream backend's logout), or null. */
  logout_url: string | null;
  created_at: string;
  updated_at: string;
}

/** One change of a site's `published` or `visibility`: who, when, from what to what. */
export interface SiteEventRow {
  id: string;
  site_id: string;
  field: 'published' | 'visibility';
  old_value: string;
  new_value: string;
  actor_user_id: string;
  at: string;
}

/** A POST request's `Idempotency-Key` (src/http/idempotency.ts). */
export interface IdempotencyKeyRow {
  id: string;
  user_id: string;
  /** The header's value, as sent: 1 to 255 visible ASCII characters. */
  idempotency_key: string;
  method: string;
  /** The request's path (without trailing slash) and query string. */
  path: string;
  /** Hex SHA-256 of the request body as canonical JSON (object keys sorted). */
  request_hash: string;
  /** The stored response's status; null while the first request is in progress. */
  status: number | null;
  /** The stored response's headers that matter (JSON object), null while in progress. */
  headers: string | null;
  /** The stored response's body, exactly as sent; null while in progress. */
  body: string | null;
  created_at: string;
  /** From then on the key is forgotten: the same key is a new request. */
  expires_at: string;
}

export interface TeamRow {
  id: string;
  organization_id: string;
  title: string;
  /** Lower-cased title: titles are unique in an organization ignoring case. */
  title_key: string;
  created_at: string;
}

export interface TeamMemberRow {
  team_id: string;
  user_id: string;
  /** `owner` (manages the team's members) or `member`. */
  role: string;
  added_at: string;
}

/** An invite to an organization: by email (single-use, expiring) or by link (reusable). */
export interface InviteRow {
  id: string;
  organization_id: string;
  kind: 'email' | 'link';
  /** The invited address (email invites); null for link invites. */
  email: string | null;
  /** The organization role given on joining (`guest` for none). */
  role: string;
  /** Link invites: 0 once disabled. Email invites: always 1. */
  enabled: number;
  created_by: string;
  created_at: string;
  /** Email invites: after this time the invite is refused (410). */
  expires_at: string | null;
  /** Email invites: when and by whom it was used (single use). */
  used_at: string | null;
  used_by: string | null;
}

/** A site redirect rule (docs/sites.md, "Redirects"). */
export interface SiteRedirectRow {
  id: string;
  site_id: string;
  /** Canonical form (modules/redirects/source-path.ts): `/old/page`, `/old/*`, `/old*`. */
  source: string;
  draft: number;
  capture_wildcard: number;
  permanent: number;
  /** GitBook's SiteRedirectDestination, as JSON text. */
  destination: string;
  created_at: string;
  updated_at: string | null;
}

/** A signed upload URL handed out, and whether it was used (docs/uploads.md; migration 0024). */
export interface StorageUploadRow {
  id: string;
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  content_type: string;
  size: number;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** An uploaded file, its bytes in `file_blobs` under `hash` (docs/uploads.md; migration 0024). */
export interface StorageObjectRow {
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  content_type: string;
  size: number;
  hash: string;
  created_by: string | null;
  created_at: string;
}

/** A custom font of an organization (docs/customization.md, "Custom fonts"; migration 0025). */
export interface CustomFontRow {
  id: string;
  organization_id: string;
  font_family: string;
  /** JSON: `[{weight, storageKey, url, format?}]`, in weight order. */
  faces: string;
  created_at: string;
  updated_at: string | null;
}

/** One site analytics event (migration 0026; modules/site-insights/event-row.ts says what each holds). */
export interface SiteInsightEventRow {
  site_id: string;
  /** Epoch milliseconds (PostgreSQL answers a bigint as text: read it through Number). */
  ts: number | string;
  at: string;
  type: string;
  display_context: string;
  visitor: string | null;
  session: string | null;
  url: string | null;
  url_path: string | null;
  site_section: string | null;
  site_space: string | null;
  share_key: string | null;
  space: string | null;
  revision: string | null;
  page: string | null;
  referrer: string | null;
  referrer_domain: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  language: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  bot: string | null;
  search_query: string | null;
  search_record: string | null;
  feedback_rating: string | null;
  feedback_comment: string | null;
  ask_rating: string | null;
  link_kind: string | null;
  link_value: string | null;
  link_domain: string | null;
  link_position: string | null;
  api_path: string | null;
  api_method: string | null;
  llms_variant: string | null;
  markdown_source: string | null;
  ad_domain: string | null;
  ad_placement: string | null;
  trademark_placement: string | null;
  /** 1 or 0; null when unknown. */
  authenticated: number | null;
}

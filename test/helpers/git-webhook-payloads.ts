/**
 * Push webhook deliveries in each provider's documented shape, cut down to the fields Livery reads
 * and a few it does not (so that extra fields are shown to be harmless). Written for the tests from
 * the providers' documentation, not captured: ids and names are made up.
 */
import { createHmac } from 'node:crypto';

export const BEFORE = '6113728f27ae82c7b1a177c8d03f9e96e0adf246';
export const AFTER = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
export const ZEROS = '0'.repeat(40);

export const hmacHex = (body: Buffer | string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('hex');

export const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** GitHub `push` (docs.github.com, "Webhook events and payloads", push). */
export function githubPush(overrides: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    before: BEFORE,
    after: AFTER,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/acme/docs/compare/${BEFORE.slice(0, 12)}...${AFTER.slice(0, 12)}`,
    commits: [{ id: AFTER, message: 'Update README.md', distinct: true }],
    repository: {
      id: 1296269,
      name: 'docs',
      full_name: 'acme/docs',
      html_url: 'https://github.com/acme/docs',
      url: 'https://github.com/acme/docs',
      git_url: 'git://github.com/acme/docs.git',
      ssh_url: 'git@github.com:acme/docs.git',
      clone_url: 'https://github.com/acme/docs.git',
      default_branch: 'main',
    },
    pusher: { name: 'octocat', email: 'octocat@example.com' },
    sender: { login: 'octocat', id: 1 },
    ...overrides,
  };
}

/** GitHub `ping`, sent when a webhook is created. */
export const githubPing = {
  zen: 'Keep it logically awesome.',
  hook_id: 42,
  hook: { type: 'Repository', id: 42, events: ['push'], active: true },
  repository: { full_name: 'acme/docs', clone_url: 'https://github.com/acme/docs.git' },
};

const gitlabProject = {
  id: 15,
  name: 'Docs',
  web_url: 'https://gitlab.example.com/acme/docs',
  git_ssh_url: 'git@gitlab.example.com:acme/docs.git',
  git_http_url: 'https://gitlab.example.com/acme/docs.git',
  namespace: 'Acme',
  path_with_namespace: 'acme/docs',
  default_branch: 'main',
  homepage: 'https://gitlab.example.com/acme/docs',
  url: 'git@gitlab.example.com:acme/docs.git',
  ssh_url: 'git@gitlab.example.com:acme/docs.git',
  http_url: 'https://gitlab.example.com/acme/docs.git',
};

/** GitLab `Push Hook` (docs.gitlab.com, "Webhook events", push events). */
export function gitlabPush(overrides: Record<string, unknown> = {}) {
  return {
    object_kind: 'push',
    event_name: 'push',
    before: BEFORE,
    after: AFTER,
    ref: 'refs/heads/main',
    ref_protected: true,
    checkout_sha: AFTER,
    user_username: 'jsmith',
    project_id: 15,
    project: gitlabProject,
    commits: [{ id: AFTER, message: 'Update index.md' }],
    total_commits_count: 1,
    repository: {
      name: 'Docs',
      url: 'git@gitlab.example.com:acme/docs.git',
      homepage: 'https://gitlab.example.com/acme/docs',
      git_http_url: 'https://gitlab.example.com/acme/docs.git',
      git_ssh_url: 'git@gitlab.example.com:acme/docs.git',
      visibility_level: 0,
    },
    ...overrides,
  };
}

/** GitLab `Tag Push Hook`: a new tag, so `before` is zeros. */
export const gitlabTagPush = gitlabPush({
  object_kind: 'tag_push',
  event_name: 'tag_push',
  ref: 'refs/tags/v1.0.0',
  before: ZEROS,
});

/** Gitea / Forgejo `push` (docs.gitea.com, "Webhooks": the payload shape is GitHub's). */
export function giteaPush(overrides: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    before: BEFORE,
    after: AFTER,
    compare_url: `https://gitea.example.com/acme/docs/compare/${BEFORE}...${AFTER}`,
    commits: [{ id: AFTER, message: 'Update index.md\n' }],
    total_commits: 1,
    repository: {
      id: 1,
      name: 'docs',
      full_name: 'acme/docs',
      html_url: 'https://gitea.example.com/acme/docs',
      ssh_url: 'ssh://git@gitea.example.com:2222/acme/docs.git',
      clone_url: 'https://gitea.example.com/acme/docs.git',
      default_branch: 'main',
    },
    pusher: { login: 'gitea', id: 1 },
    ...overrides,
  };
}

/**
 * The headers Gitea sends with a delivery: its own, and Gogs' and GitHub's too, for receivers
 * written for those (Gitea signs the GitHub-style header with the same HMAC).
 */
export function giteaHeaders(body: Buffer, secret: string, event = 'push') {
  const signature = hmacHex(body, secret);
  return {
    'content-type': 'application/json',
    'x-gitea-delivery': 'f6266f16-1bf3-46a5-9ea4-602e06ead473',
    'x-gitea-event': event,
    'x-gitea-event-type': event,
    'x-gitea-signature': signature,
    'x-gogs-delivery': 'f6266f16-1bf3-46a5-9ea4-602e06ead473',
    'x-gogs-event': event,
    'x-gogs-signature': signature,
    'x-github-delivery': 'f6266f16-1bf3-46a5-9ea4-602e06ead473',
    'x-github-event': event,
    'x-hub-signature-256': `sha256=${signature}`,
  };
}

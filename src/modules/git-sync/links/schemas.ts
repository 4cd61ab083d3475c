import { Type } from 'typebox';

/** `linkSpaceGitRepository`'s body (a Livery extension, docs/git-sync.md "Linking a repository"). */
export const LinkInputSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'The repository (https:// with credentials inside, ssh://, or a local path under GIT_LOCAL_DIRS). Credentials are stored encrypted with the server key, never shown',
    }),
    ref: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The branch to sync with, as "refs/heads/main" or "main"',
    }),
    repoProjectDirectory: Type.Optional(
      Type.String({ maxLength: 1024, description: "The space's folder in the repository" }),
    ),
    priority: Type.Optional(
      Type.Union([Type.Literal('git'), Type.Literal('livery')], {
        description:
          "Which side wins a file both changed, and which side the first sync starts from (GitBook's priority setting). Default: git",
      }),
    ),
    commitMessageTemplate: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          "Commit messages of Livery's merges: `{number}` and `{subject}` of the change request. Default: GITBOOK-{number}: {subject}",
      }),
    ),
    author: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^<>\\n]+$' }),
          email: Type.String({ minLength: 3, maxLength: 256, pattern: '^[^<>\\s]+$' }),
        },
        {
          additionalProperties: false,
          description: 'Who the commits are by. Default: GIT_COMMIT_AUTHOR',
        },
      ),
    ),
    previewExternalBranches: Type.Optional(
      Type.Boolean({
        description:
          "Import other branches pushed to the repository as change requests, each with a preview link (GitBook's previewExternalBranches). Default: false",
      }),
    ),
    pollIntervalSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86_400,
        description:
          'Fetch the branch this often, for remotes that send no webhooks; 0 (default): never',
      }),
    ),
    webhookSecret: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 256,
        description:
          "The webhook's secret (GitHub's and Gitea's signing secret, GitLab's token); default: a random one, answered once",
      }),
    ),
  },
  { additionalProperties: false },
);

export const GitLinkSchema = Type.Object({
  url: Type.String({ description: 'The repository, credentials shown as ***' }),
  ref: Type.String(),
  repoProjectDirectory: Type.String(),
  priority: Type.Union([Type.Literal('git'), Type.Literal('livery')]),
  commitMessageTemplate: Type.String(),
  author: Type.Object({ name: Type.String(), email: Type.String() }),
  previewExternalBranches: Type.Boolean(),
  pollIntervalSeconds: Type.Integer(),
  webhook: Type.Object({
    url: Type.String({ description: 'Where the provider sends push events' }),
    secret: Type.Optional(
      Type.String({ description: 'Only in the answer that set it: give it to the provider' }),
    ),
  }),
  previews: Type.Array(
    Type.Object({
      branch: Type.String(),
      changeRequest: Type.String(),
      commit: Type.String(),
      url: Type.Optional(Type.String({ description: 'The share link of the preview' })),
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

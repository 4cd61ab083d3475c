import { Type } from 'typebox';

/** GitBook 0.202's ImportGitRepository (deprecated `repoCacheID` and `gitInfo` accepted, unused). */
export const ImportGitRepositorySchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'URL of the Git repository to import (https:// or ssh://; credentials inside it are used, never stored or shown). Local paths and file:// only inside GIT_LOCAL_DIRS',
    }),
    ref: Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'Git ref to import in the format "refs/heads/main" (a branch name, tag or commit also works)',
    }),
    repoCacheID: Type.Optional(Type.String({ deprecated: true, description: 'Accepted, unused' })),
    repoTreeURL: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'URL to use as a prefix for external file references',
      }),
    ),
    repoCommitURL: Type.Optional(
      Type.String({ maxLength: 2048, description: 'URL to use as a prefix for the commit URL' }),
    ),
    repoProjectDirectory: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'Path to a root directory for the project in the repository',
      }),
    ),
    timestamp: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When the event that triggered this import happened: an import older than the last one asked for is ignored',
      }),
    ),
    force: Type.Optional(
      Type.Boolean({ description: 'Import even when the commit is the one imported last' }),
    ),
    standalone: Type.Optional(
      Type.Boolean({ description: "Make a revision without making it the space's current one" }),
    ),
    gitInfo: Type.Optional(
      Type.Object(
        {
          provider: Type.Union([Type.Literal('github'), Type.Literal('gitlab')]),
          url: Type.String(),
        },
        { deprecated: true, additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Timestamp = Type.String({ format: 'date-time' });

/** GitBook 0.202's GitSyncState, with Livery's `warnings` (what the last operation left out). */
export const GitSyncStateSchema = Type.Object({
  repoName: Type.String(),
  installationStatus: Type.Union([
    Type.Literal('unauthenticated'),
    Type.Literal('active'),
    Type.Literal('pending'),
  ]),
  installationProvider: Type.Union([
    Type.Literal('github'),
    Type.Literal('gitlab'),
    Type.Literal('github-legacy'),
  ]),
  installationId: Type.String(),
  url: Type.String({ description: 'The repository (its tree URL when the import gave one)' }),
  operation: Type.Object({
    state: Type.Union([
      Type.Literal('running'),
      Type.Literal('failure'),
      Type.Literal('success'),
      Type.Literal('timeout'),
    ]),
    direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
    startedAt: Timestamp,
    endedAt: Type.Optional(Timestamp),
    error: Type.Optional(Type.String()),
  }),
  operationTimeout: Type.Optional(
    Type.Number({ description: 'Milliseconds an operation may run' }),
  ),
  updatedAt: Timestamp,
  warnings: Type.Array(
    Type.Object({
      file: Type.String(),
      line: Type.Optional(Type.Integer()),
      message: Type.String(),
    }),
    {
      description:
        'Livery: what the latest operation could not import, each with its file and line',
    },
  ),
});

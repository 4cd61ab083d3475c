import assert from 'node:assert/strict';
import * as runtime from '@gitbook/api';
import type * as Client from '../../node_modules/@gitbook/api/dist/client.js';
import type { GitBookAPIError as GitBookAPIErrorType } from '../../node_modules/@gitbook/api/dist/GitBookAPIError.js';
import type { TestContext } from './app.js';

/**
 * The official client, typed. `@gitbook/api@0.130.0`'s declaration files import `./client`
 * without an extension, which TypeScript's NodeNext resolution cannot follow, so the package's
 * own declaration files are imported by path here. Runtime values are the package's, untouched.
 */
export type GitBookClient = Client.Api<{ authToken?: string }>;
export type GitBookAPIError = GitBookAPIErrorType;

const pkg = runtime as unknown as typeof Client & {
  GitBookAPI: new (options: { authToken?: string; endpoint?: string }) => GitBookClient;
  GitBookAPIError: new (...args: never[]) => GitBookAPIErrorType;
};

export const { GitBookAPI, GitBookAPIError, CustomizationLocale } = pkg;

/**
 * Makes the test app listen on a free loopback port and answers the official client pointed at
 * it with the owner's token: GitBook user code after changing only the endpoint.
 */
export async function listenWithClient(
  t: TestContext,
): Promise<{ api: GitBookClient; endpoint: string }> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const endpoint = `http://127.0.0.1:${address.port}`;
  return { api: new GitBookAPI({ authToken: t.token, endpoint }), endpoint };
}

/** The GitBookAPIError a call through the official client must fail with. */
export async function clientFailure(promise: Promise<unknown>): Promise<GitBookAPIErrorType> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GitBookAPIError, String(error));
    return error;
  }
  assert.fail('expected the client to throw GitBookAPIError');
}

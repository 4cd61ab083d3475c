import * as runtime from '@gitbook/api';
import type * as Client from '../../node_modules/@gitbook/api/dist/client.js';
import type { GitBookAPIError as GitBookAPIErrorType } from '../../node_modules/@gitbook/api/dist/GitBookAPIError.js';

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

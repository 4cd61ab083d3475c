import type { Shape } from '../../src/settings/override-rules.js';
import type { JsonObject } from '../schema/paths.js';
import type { JsonSchema } from '../schema/walk.js';
import { api } from './client.js';

/** GET /studio/schema.json: the schema that validates the API, fetched once per page load. */
export interface StudioSchema {
  /** JSON Schema of the site settings. */
  settings: JsonSchema;
  /** JSON Schema of a PATCH body (a variant's override). */
  override: JsonSchema;
  /** Which fields are groups (merged field by field); anything else is a leaf. */
  shape: Shape;
  defaults: JsonObject;
  /** Top-level fields a variant may not override. */
  siteOnly: string[];
}

let loaded: StudioSchema | undefined;
let loading: Promise<StudioSchema> | undefined;

export function loadSchema(): Promise<StudioSchema> {
  loading ??= api.get<StudioSchema>('/studio/schema.json').then(
    (answer) => {
      loaded = answer.body;
      return answer.body;
    },
    (error: unknown) => {
      loading = undefined; // let the next caller try again
      throw error;
    },
  );
  return loading;
}

/** The schema if it was loaded already. */
export const loadedSchema = (): StudioSchema | undefined => loaded;

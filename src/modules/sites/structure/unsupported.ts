import type { UnsupportedInput } from '../../../unsupported-inputs.js';

/**
 * GitBook's structure inputs for features Livery does not have (src/unsupported-inputs.ts;
 * docs/api.md lists them): conditions (adaptive content), space templates, custom home pages.
 */
export const STRUCTURE_INPUTS = {
  condition: {
    field: 'condition',
    accepted: [null],
    reason: 'Livery has no conditional structure: every section and link is shown to every visitor',
  },
  template: { field: 'template', accepted: [], reason: 'Livery has no space templates' },
  pageId: {
    field: 'pageId',
    accepted: [],
    reason: "Livery has no custom home pages: a variant starts at its space's first page",
  },
} as const satisfies Record<string, UnsupportedInput>;

export const ADD_SECTION_UNSUPPORTED: readonly UnsupportedInput[] = [
  STRUCTURE_INPUTS.template,
  STRUCTURE_INPUTS.pageId,
];

export const CONDITION_UNSUPPORTED: readonly UnsupportedInput[] = [STRUCTURE_INPUTS.condition];

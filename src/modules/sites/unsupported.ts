import type { UnsupportedInput } from '../../unsupported-inputs.js';

/**
 * GitBook's site and site-space inputs for features Livery does not have: the value true of
 * Livery is accepted and changes nothing, any other is a 400 (src/unsupported-inputs.ts;
 * docs/api.md lists them).
 */
export const SITE_INPUTS = {
  defaultLevel: {
    field: 'defaultLevel',
    accepted: ['inherit'],
    reason:
      'Livery has no access levels per site or space: members reach them through their organization role',
  },
  adaptiveContent: {
    field: 'adaptiveContent',
    accepted: [{ enabled: false }],
    reason: 'Livery has no adaptive content',
  },
  styleguide: { field: 'styleguide', accepted: [null], reason: 'Livery has no style guides' },
  pageId: {
    field: 'pageId',
    accepted: [null],
    reason: "Livery has no custom home pages: a variant starts at its space's first page",
  },
  template: { field: 'template', accepted: [], reason: 'Livery has no space templates' },
  // Earlier versions stored conditions without evaluating them; null still removes one.
  condition: {
    field: 'condition',
    accepted: [null],
    reason: 'Livery has no conditional site-spaces: every variant is served to every visitor',
  },
} as const satisfies Record<string, UnsupportedInput>;

export const UPDATE_SITE_UNSUPPORTED: readonly UnsupportedInput[] = [
  SITE_INPUTS.defaultLevel,
  SITE_INPUTS.adaptiveContent,
  SITE_INPUTS.styleguide,
];

export const ADD_SPACE_TO_SITE_UNSUPPORTED: readonly UnsupportedInput[] = [
  SITE_INPUTS.pageId,
  SITE_INPUTS.template,
];

export const UPDATE_SITE_SPACE_UNSUPPORTED: readonly UnsupportedInput[] = [
  SITE_INPUTS.pageId,
  SITE_INPUTS.condition,
];

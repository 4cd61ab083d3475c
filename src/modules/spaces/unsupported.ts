import type { UnsupportedInput } from '../../unsupported-inputs.js';

/**
 * GitBook's space inputs for features Livery does not have: the value true of Livery is accepted
 * and changes nothing, any other is a 400 (src/unsupported-inputs.ts; docs/api.md lists them).
 */
export const SPACE_INPUTS = {
  // A locked space would have to refuse change requests; Livery never does.
  editMode: {
    field: 'editMode',
    accepted: ['live'],
    reason: 'Livery has no locked spaces: every space is edited through change requests',
  },
  parent: { field: 'parent', accepted: [], reason: 'Livery has no collections' },
  template: { field: 'template', accepted: [], reason: 'Livery has no space templates' },
  computedSource: {
    field: 'computedSource',
    accepted: [],
    reason: 'Livery has no computed content',
  },
  defaultLevel: {
    field: 'defaultLevel',
    accepted: ['inherit'],
    reason:
      'Livery has no access levels per site or space: members reach them through their organization role',
  },
  mergeRules: {
    field: 'mergeRules',
    accepted: [{ type: 'inherit' }],
    reason: "Livery has no merge rules per space: the organization's (none) apply",
  },
} as const satisfies Record<string, UnsupportedInput>;

export const CREATE_SPACE_UNSUPPORTED: readonly UnsupportedInput[] = [
  SPACE_INPUTS.editMode,
  SPACE_INPUTS.parent,
  SPACE_INPUTS.template,
  SPACE_INPUTS.computedSource,
];

export const UPDATE_SPACE_UNSUPPORTED: readonly UnsupportedInput[] = [
  SPACE_INPUTS.editMode,
  SPACE_INPUTS.defaultLevel,
  SPACE_INPUTS.mergeRules,
];

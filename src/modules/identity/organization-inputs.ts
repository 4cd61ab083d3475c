import type { UnsupportedInput } from '../../unsupported-inputs.js';

/**
 * GitBook's organization inputs for features Livery does not have: the value true of Livery is
 * accepted and changes nothing, any other is a 400 naming the field (src/unsupported-inputs.ts;
 * docs/members.md lists them). Only the title is stored.
 */
export const ORGANIZATION_INPUTS = {
  emailDomains: {
    field: 'emailDomains',
    accepted: [[]],
    reason: 'Livery has no joining by email domain: people join through invites',
  },
  hostname: {
    field: 'hostname',
    accepted: [],
    reason:
      'Livery has no organization hostname: each site has its own basename and custom hostname',
  },
  defaultRole: {
    field: 'defaultRole',
    accepted: [],
    reason: 'Livery has no default role: each invite names the role it gives',
  },
  defaultContent: {
    field: 'defaultContent',
    accepted: [null],
    reason: 'Livery has no default content of an organization',
  },
  logo: {
    field: 'logo',
    accepted: [null],
    reason: "Livery has no organization logo: a site's logo is in its customization",
  },
  sso: { field: 'sso', accepted: [false], reason: 'Livery has no SSO' },
  ai: { field: 'ai', accepted: [false], reason: 'Livery has no AI features' },
  inviteLinks: {
    field: 'inviteLinks',
    accepted: [true],
    reason: 'Livery has no way to turn invite links off (only admins create them)',
  },
  mergeRules: {
    field: 'mergeRules',
    accepted: [{ type: 'none' }],
    reason: 'Livery has no merge rules: a change request is merged without review',
  },
  onboardingPreferences: {
    field: 'onboardingPreferences',
    accepted: [],
    reason: 'Livery has no default site to apply onboarding preferences to',
  },
} as const satisfies Record<string, UnsupportedInput>;

const I = ORGANIZATION_INPUTS;

export const CREATE_ORGANIZATION_UNSUPPORTED: readonly UnsupportedInput[] = [
  I.emailDomains,
  I.onboardingPreferences,
];

export const UPDATE_ORGANIZATION_UNSUPPORTED: readonly UnsupportedInput[] = [
  I.emailDomains,
  I.hostname,
  I.defaultRole,
  I.defaultContent,
  I.logo,
  I.sso,
  I.ai,
  I.inviteLinks,
  I.mergeRules,
];

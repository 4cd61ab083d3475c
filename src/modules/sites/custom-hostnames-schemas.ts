import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';

export const HostnameParams = Type.Object({
  hostname: Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'The custom hostname, e.g. docs.acme.com (compared without case)',
  }),
});

/** GitBook's CustomHostname, for a site's hostname (Livery has no organization hostnames). */
export const CustomHostnameSchema = Type.Object(
  {
    object: Type.Literal('custom-hostname'),
    hostname: Type.String({ description: 'The hostname, in lower case' }),
    target: Type.Object({
      type: Type.Literal('site'),
      site: Type.String({ description: 'The site served at this hostname' }),
    }),
    isActive: Type.Boolean({
      description: 'Always true: Livery serves a hostname as soon as a site holds it',
    }),
    status: Enum(['live'] as const, 'Always live: DNS and TLS are the job of the reverse proxy'),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { title: 'CustomHostname' },
);
export type CustomHostname = Static<typeof CustomHostnameSchema>;

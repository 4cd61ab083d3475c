import { type Static, Type } from 'typebox';
import { AUDIT_ACTIONS } from './actions.js';

export const ActorSchema = Type.Object(
  {
    user: Type.String({ description: 'The id of the user who made the change' }),
    token: Type.Optional(
      Type.String({ description: 'The id of the API token the change was made with' }),
    ),
  },
  { title: 'Actor' },
);

export const AuditEntrySchema = Type.Object(
  {
    object: Type.Literal('audit-entry'),
    id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    actor: ActorSchema,
    action: Type.String({
      description: `What was done: ${Object.keys(AUDIT_ACTIONS).join(', ')} (docs/history.md)`,
    }),
    target: Type.Object({
      kind: Type.String({
        description: 'site, site-space, share-link, user, invite, team, api-token or organization',
      }),
      id: Type.String(),
    }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What changed, per action (docs/history.md); never a secret',
    }),
  },
  { title: 'AuditEntry' },
);
export type AuditEntryView = Static<typeof AuditEntrySchema>;

export const AuditQuery = Type.Object({
  action: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Only this action, or the actions starting with a prefix ending in `*` (`share-link.*`)',
    }),
  ),
  actor: Type.Optional(Type.String({ minLength: 1, description: 'Only changes by this user id' })),
  target: Type.Optional(
    Type.String({ minLength: 1, description: 'Only changes to this target id' }),
  ),
  since: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only entries at or after this time' }),
  ),
  until: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only entries before this time' }),
  ),
});
export type AuditFilters = Omit<Static<typeof AuditQuery>, never>;

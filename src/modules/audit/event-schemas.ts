import { type Static, Type } from 'typebox';
import { PageQuery } from '../../http/pagination.js';

/** GitBook 0.202's audit events (`AuditEvent`, `AuditEventDetails`, `AuditEventAction`). */

const AuditEventActorSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('user')], {
      description: 'Kind of actor that initiated the change: always a user in Livery',
    }),
    id: Type.String({ description: 'The id of the user who made the change' }),
  },
  { title: 'AuditEventActor' },
);

const AuditEventTargetSchema = Type.Object(
  {
    type: Type.String({
      description: 'site, site-space, share-link, user, invite, team, api-token or organization',
    }),
    id: Type.String({ description: 'Stable identifier of the affected resource' }),
  },
  { title: 'AuditEventTarget' },
);

const eventProperties = {
  object: Type.Literal('audit-event'),
  id: Type.String({ format: 'uuid', description: 'Unique identifier of the audit event' }),
  occurredAt: Type.String({ format: 'date-time' }),
  action: Type.String({
    description:
      "GitBook's action id where GitBook has one, else Livery's action name (docs/history.md)",
  }),
  actor: AuditEventActorSchema,
  source: Type.Union([Type.Literal('api')], {
    description: "Every change Livery records comes through its API (the studio's too)",
  }),
  target: AuditEventTargetSchema,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
};

export const AuditEventSchema = Type.Object(eventProperties, { title: 'AuditEvent' });
export type AuditEventView = Static<typeof AuditEventSchema>;

export const AuditEventDetailsSchema = Type.Object(
  {
    ...eventProperties,
    schemaVersion: Type.Integer({ minimum: 1, description: 'Version of the payload schema' }),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "The entry's details, per Livery action (docs/history.md); never a secret. `liveryAction` names the action Livery recorded.",
    }),
  },
  { title: 'AuditEventDetails' },
);
export type AuditEventDetailsView = Static<typeof AuditEventDetailsSchema>;

export const AuditEventActionSchema = Type.Object(
  {
    object: Type.Literal('audit-event-action'),
    id: Type.String({ description: 'Stable action identifier stored on audit events' }),
    label: Type.String({ description: 'Human-readable label for the action' }),
  },
  { title: 'AuditEventAction' },
);

export const AuditEventQuery = Type.Object({
  page: PageQuery.page,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 20,
      description: 'Number of events to return, up to 100',
    }),
  ),
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'Include events at or after this time' }),
  ),
  to: Type.Optional(
    Type.String({ format: 'date-time', description: 'Include events at or before this time' }),
  ),
  action: Type.Optional(
    Type.String({ minLength: 1, description: 'Filter by an exact audit action name' }),
  ),
  actor: Type.Optional(
    Type.String({ minLength: 1, description: 'Filter by an exact actor (user) id' }),
  ),
  target: Type.Optional(Type.String({ minLength: 1, description: 'Filter by an exact target id' })),
});
export type AuditEventFilters = Omit<Static<typeof AuditEventQuery>, 'page' | 'limit'>;

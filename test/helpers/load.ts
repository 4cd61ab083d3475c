import type { TestContext } from './app.js';

/** The app of `t` listening on a free loopback port, for clients that need real sockets. */
export async function listen(t: TestContext): Promise<string> {
  return t.app.listen({ host: '127.0.0.1', port: 0 });
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  etag: string | null;
}

/** One JSON request over HTTP with a bearer token. */
export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    etag: response.headers.get('etag'),
  };
}

/** Fields of a variant override that concurrent writers set, and the value each one writes. */
export const FIELDS = [
  'title',
  'primaryColor',
  'infoColor',
  'successColor',
  'warningColor',
  'dangerColor',
] as const;
export type Field = (typeof FIELDS)[number];

const hex = (n: number) => (n % 256).toString(16).padStart(2, '0');

/** The PATCH body setting `field` to a value that names the writer and its sequence number. */
export function patchOf(field: Field, writer: number, seq: number): Record<string, unknown> {
  if (field === 'title') return { title: `w${writer}-${seq}` };
  const color = `#${hex(writer)}${hex(seq)}${hex(Math.floor(seq / 256))}`;
  return { styling: { [field]: { light: color, dark: color } } };
}

/** That field's value in a customization body, in the form patchOf writes it. */
export function fieldValue(body: Record<string, unknown>, field: Field): unknown {
  if (field === 'title') return body.title;
  const styling = body.styling as Record<string, { light?: string } | undefined> | undefined;
  return styling?.[field]?.light;
}

/** The value patchOf(field, writer, seq) writes, as fieldValue reads it. */
export function expectedValue(field: Field, writer: number, seq: number): unknown {
  return fieldValue(patchOf(field, writer, seq), field);
}

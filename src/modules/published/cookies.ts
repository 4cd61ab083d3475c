/** The `Cookie` header as name → value (first value of a name wins, as browsers send it). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (header === undefined) return cookies;
  for (const raw of header.split(';')) {
    const part = raw.trim();
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (name in cookies) continue;
    const value = part.slice(at + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  secure: boolean;
  /** Seconds; a session cookie without it. */
  maxAge?: number;
}

/** One `Set-Cookie` value; `SameSite=Lax` always, so no other site can send it with a POST. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
    ...(options.maxAge === undefined ? [] : [`Max-Age=${options.maxAge}`]),
  ].join('; ');
}

import type { ErrorObject } from 'ajv';
import { HEADER_ORIGIN_KEYWORD } from '../http-origin.js';

/**
 * Turns the validator's errors into one sentence that names the offending JSON path and the rule,
 * e.g. `body.themes.toggleable is not a known field (did you mean "toggeable"?)`.
 *
 * A value that may be null or an object yields one error per alternative; the error that went
 * deepest into the value is the one that says what is wrong, so that one is reported.
 */
export function describeValidationErrors(errors: readonly ErrorObject[], part: string): string {
  return explainValidationErrors(errors, part).message;
}

/**
 * The sentence of describeValidationErrors and where it points: the JSON path segments of the
 * offending value (with the unknown or missing field last when there is one), so that a caller
 * reading a file can name the line (git-sync's docs.yaml and customization file).
 */
export function explainValidationErrors(
  errors: readonly ErrorObject[],
  part: string,
): { message: string; path: string[] } {
  const useful = errors.filter((e) => !isNoise(e));
  const candidates = useful.length > 0 ? useful : errors;
  let best = candidates[0];
  for (const error of candidates) {
    if (best === undefined || depth(error) > depth(best)) best = error;
  }
  if (best === undefined) return { message: `${part} is invalid`, path: [] };
  const nullAllowed = errors.some((e) => isNullBranch(e) && e.instancePath === best?.instancePath);
  return { message: describe(best, part, nullAllowed), path: segmentsOf(best) };
}

function segmentsOf(error: ErrorObject): string[] {
  const segments =
    error.instancePath === ''
      ? []
      : error.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  const extra =
    error.keyword === 'additionalProperties'
      ? params.additionalProperty
      : error.keyword === 'required'
        ? undefined // a missing field has no line of its own: its object's line
        : (error as { propertyName?: unknown }).propertyName;
  if (typeof extra === 'string') segments.push(extra);
  return segments;
}

function describe(error: ErrorObject, part: string, nullAllowed: boolean): string {
  const at = pathOf(part, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const orNull = nullAllowed ? ' or null' : '';
  // A map's key that is not allowed (e.g. a language code of `localizedTitle`).
  const key = (error as { propertyName?: unknown }).propertyName;
  if (typeof key === 'string' && error.keyword === 'enum') {
    return `${pathOf(part, error.instancePath, key)} is not a known key: keys must be one of ${listOf(params.allowedValues as unknown[])}`;
  }
  switch (error.keyword) {
    case 'required':
      return `${at}.${String(params.missingProperty)} is required`;
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      return `${pathOf(part, error.instancePath, field)} is not a known field${suggestion(field, error)}`;
    }
    case 'type':
      return `${at} must be ${article(String(params.type))}${orNull}${got(error.data)}`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).filter((v) => v !== null);
      const nullable = allowed.length < (params.allowedValues as unknown[]).length;
      return `${at} must be one of ${listOf(allowed)}${nullable ? ' or null' : ''}${got(error.data)}`;
    }
    case 'const':
      return `${at} must be ${JSON.stringify(params.allowedValue)}${got(error.data)}`;
    case 'pattern':
    case 'format':
      return `${at} must be ${formatName(error)}${got(error.data)}`;
    case 'minLength':
      return `${at} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${at} must be at most ${String(params.limit)} characters long`;
    case 'maxItems':
      return `${at} must have at most ${String(params.limit)} items`;
    case 'minItems':
      return `${at} must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `${at} must have at most ${String(params.limit)} field(s)${hint(error)}`;
    case 'minimum':
    case 'maximum':
      return `${at} must be ${error.keyword === 'minimum' ? '>=' : '<='} ${String(params.limit)}${got(error.data)}`;
    case 'not':
      return `${at} is not allowed: ${hint(error).slice(2) || 'this field cannot be set here'}`;
    case HEADER_ORIGIN_KEYWORD:
      return `${at} must be an absolute http(s) URL whose host is a name or an IPv4 address (letters, digits, hyphens, dots): its origin goes into the page's Content-Security-Policy${got(error.data)}`;
    case 'discriminator':
      return `${at}.${String(params.tag)} must be one of ${discriminatorValues(error)}${got((error.data as Record<string, unknown>)?.[String(params.tag)])}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/** Allowed values, quoted; a long enumeration is cut short (GET /openapi.json has them all). */
function listOf(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  if (quoted.length <= 20) return quoted.join(', ');
  return `${quoted.slice(0, 12).join(', ')}, … (${quoted.length} values, listed in GET /openapi.json)`;
}

function isNullBranch(error: ErrorObject): boolean {
  return error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null';
}

function isNoise(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf' || isNullBranch(error);
}

function depth(error: ErrorObject): number {
  const extra = error.keyword === 'required' || error.keyword === 'additionalProperties' ? 1 : 0;
  return error.instancePath.split('/').length + extra;
}

/** `/header/links/0/to` → `body.header.links[0].to` */
function pathOf(part: string, instancePath: string, extra?: string): string {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/');
  if (extra !== undefined) segments.push(extra);
  let path = part;
  for (const raw of segments) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  }
  return path;
}

const PATTERN_NAMES: Record<string, string> = {
  '^#(?:[0-9a-fA-F]{3}){1,2}$': 'a hex color such as #346DDB (#rgb or #rrggbb)',
  '^[hH][tT][tT][pP][sS]?://': 'an absolute http(s) URL',
  '^(?:[hH][tT][tT][pP][sS]?://|[mM][aA][iI][lL][tT][oO]:)': 'an absolute http(s) or mailto: URL',
};

function formatName(error: ErrorObject): string {
  const params = error.params as { pattern?: string; format?: string };
  if (error.keyword === 'pattern') {
    return PATTERN_NAMES[params.pattern ?? ''] ?? `a string matching ${params.pattern}`;
  }
  if (params.format === 'uri') return 'an absolute http(s) URL';
  if (params.format === 'emoji')
    return 'an emoji (a character such as 🎉 or a codepoint such as 1f389)';
  return `a valid ${params.format}`;
}

function article(type: string): string {
  const names = type.split(',').filter((t) => t !== 'null');
  const described = names.map((t) =>
    t === 'object' || t === 'array' || t === 'integer' ? `an ${t}` : `a ${t}`,
  );
  return described.join(' or ') + (names.length < type.split(',').length ? ' or null' : '');
}

function got(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'object' && value !== null)
    return Array.isArray(value) ? ' (got an array)' : ' (got an object)';
  const text = JSON.stringify(value);
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}

function hint(error: ErrorObject): string {
  const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
  return typeof description === 'string' ? `: ${description}` : '';
}

function discriminatorValues(error: ErrorObject): string {
  const branches = ((error.parentSchema as { oneOf?: unknown[] } | undefined)?.oneOf ?? []) as {
    properties?: Record<string, { const?: unknown }>;
  }[];
  const tag = String((error.params as { tag?: unknown }).tag);
  return branches.map((b) => JSON.stringify(b.properties?.[tag]?.const)).join(', ');
}

function suggestion(field: string, error: ErrorObject): string {
  const known = Object.keys(
    ((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object,
  );
  const close = known.find((k) => editDistance(k.toLowerCase(), field.toLowerCase()) <= 2);
  const list = known.length > 0 && known.length <= 20 ? `; known fields: ${known.join(', ')}` : '';
  return close !== undefined ? ` (did you mean ${JSON.stringify(close)}?)` : list;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

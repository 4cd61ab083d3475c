import type { FastifyBaseLogger } from 'fastify';
import { type TextProblem, textProblem } from '../well-formed-text.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import type { Shape } from './override-rules.js';
import { SETTINGS_SHAPE, type Settings, SettingsSchema } from './settings-schema.js';

/**
 * Settings as a page can render them: every text in them well-formed (well-formed-text.ts).
 * Livery refuses ill-formed text on the way in, but settings stored before it did may hold some
 * (a social handle with a lone surrogate made `encodeURIComponent` throw, and every page of the
 * site answer 500). Rendering must never fail on stored data, so the setting that holds such a
 * text is left out, and the rest of the page is served:
 *
 * - an item of a list (a social account, a header link or one of its sub-links, a footer link)
 *   is dropped from its list;
 * - any other setting takes its default (`styling.font`: Inter), or is absent when it has none
 *   (`title`, `header.logo`, `announcement`): the nearest setting that may be absent goes.
 *
 * Each one left out is told to `leftOut`. Pure; answers `settings` itself when nothing is wrong.
 */
export interface LeftOut {
  /** The setting left out, as `socialAccounts[0]` or `styling.font`. */
  setting: string;
  /** The text that could not be rendered, as `socialAccounts[0].handle`. */
  field: string;
  problem: TextProblem;
  /** What the page shows instead. */
  instead: 'nothing' | 'the default';
}

export function renderableSettings(settings: Settings, leftOut: (what: LeftOut) => void): Settings {
  const walk = new Walk(leftOut);
  const result = walk.group(settings, SETTINGS_SHAPE, SettingsSchema, DEFAULT_SETTINGS, '');
  // The root has a default for every required field, so it always absorbs what is left out.
  return result === ILL_FORMED ? DEFAULT_SETTINGS : (result as Settings);
}

/** The `leftOut` of a request: one warning line naming the setting. */
export function warnLeftOut(log: Pick<FastifyBaseLogger, 'warn'>) {
  return ({ setting, field, problem, instead }: LeftOut) =>
    log.warn(
      { setting, field, problem },
      `customization: ${setting} is left out of the rendered page (it shows ${instead}): ${field} holds ${problem === 'nul' ? 'a NUL character' : 'a lone surrogate'}`,
    );
}

const ILL_FORMED = Symbol('ill-formed');
type Cleaned = unknown;
type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Own keys only: `constructor`, `toString`… are no setting, default or schema property. */
const own = (object: unknown, key: string): unknown =>
  isObject(object) && Object.hasOwn(object, key) ? object[key] : undefined;
/** `styling.font`; a name that is not well-formed text as `localizedTitle["a\\ud800"]` (escaped). */
const join = (at: string, key: string) =>
  textProblem(key) !== undefined
    ? `${at}[${JSON.stringify(key)}]`
    : at === ''
      ? key
      : `${at}.${key}`;

class Walk {
  /** The ill-formed text last found, and what is wrong with it. */
  private found: { field: string; problem: TextProblem } = { field: '', problem: 'nul' };

  constructor(private readonly leftOut: (what: LeftOut) => void) {}

  /** A group (fields that merge one by one): each field that cannot be rendered is replaced. */
  group(value: JsonObject, shape: Shape, schema: unknown, defaults: unknown, at: string): Cleaned {
    const out: JsonObject = {};
    let changed = false;
    for (const [key, child] of Object.entries(value)) {
      const where = join(at, key);
      const inner = own(shape, key) as Shape | undefined;
      const property = own(own(schema, 'properties'), key);
      let cleaned: Cleaned;
      if (this.isIllFormed(key, where)) cleaned = ILL_FORMED;
      else if (inner !== undefined && isObject(child))
        cleaned = this.group(child, inner, property, own(defaults, key), where);
      else cleaned = this.value(child, where);
      if (cleaned === child) {
        out[key] = child;
        continue;
      }
      changed = true;
      if (cleaned !== ILL_FORMED) {
        out[key] = cleaned;
        continue;
      }
      const fallback = own(defaults, key);
      const required = (own(schema, 'required') as string[] | undefined)?.includes(key) ?? false;
      if (fallback === undefined && required) return ILL_FORMED; // the group cannot do without it
      if (fallback !== undefined) out[key] = fallback;
      const instead = fallback === undefined ? 'nothing' : 'the default';
      this.leftOut({ setting: where, ...this.found, instead });
    }
    return changed ? out : value;
  }

  /** A setting's value, or ILL_FORMED when it holds ill-formed text (a list drops such items). */
  private value(value: unknown, at: string): Cleaned {
    if (typeof value === 'string') return this.isIllFormed(value, at) ? ILL_FORMED : value;
    if (Array.isArray(value)) return this.list(value, at);
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    let changed = false;
    for (const [key, child] of Object.entries(value)) {
      const where = join(at, key);
      if (this.isIllFormed(key, where)) return ILL_FORMED;
      const cleaned = this.value(child, where);
      if (cleaned === ILL_FORMED) return ILL_FORMED;
      out[key] = cleaned;
      changed ||= cleaned !== child;
    }
    return changed ? out : value;
  }

  private list(items: readonly unknown[], at: string): Cleaned {
    const kept: unknown[] = [];
    items.forEach((item, index) => {
      const where = `${at}[${index}]`;
      const cleaned = this.value(item, where);
      if (cleaned === ILL_FORMED)
        this.leftOut({ setting: where, ...this.found, instead: 'nothing' });
      else kept.push(cleaned);
    });
    const same = kept.length === items.length && kept.every((item, index) => item === items[index]);
    return same ? items : kept;
  }

  private isIllFormed(text: string, field: string): boolean {
    const problem = textProblem(text);
    if (problem !== undefined) this.found = { field, problem };
    return problem !== undefined;
  }
}

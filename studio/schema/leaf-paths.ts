import type { Shape } from '../../src/settings/override-rules.js';
import { splitPath } from './paths.js';

/**
 * Where a settings path lies in the shape the server sends with the schema. The override rules
 * themselves (groups merge field by field, leaves are replaced whole, `null` removes) are the
 * server's, imported from src/settings/override-rules.ts (pure, no TypeBox).
 */

/**
 * The leaf a path lies in: the path cut after its first segment that is not a group
 * ("styling.primaryColor.light" → "styling.primaryColor"; "header.links.0.title" →
 * "header.links"). A group's own path is answered as is.
 */
export function leafPathOf(path: string, shape: Shape): string {
  const keys = splitPath(path);
  let node: Shape | undefined = shape;
  for (let i = 0; i < keys.length; i++) {
    node = node?.[keys[i] as string];
    if (node === undefined) return keys.slice(0, i + 1).join('.');
  }
  return path;
}

/** Whether a path names a group (merged field by field) rather than a leaf. */
export function isGroupPath(path: string, shape: Shape): boolean {
  let node: Shape | undefined = shape;
  for (const key of splitPath(path)) node = node?.[key];
  return node !== undefined;
}

/**
 * The order of an organization's spaces (docs/content.md, "The order of an organization's
 * spaces"). Each space has a text sort key, `spaces.position`; lists go by (position, id).
 *
 * A new space's key is its creation time and id, so a new space goes last and no two keys are
 * equal. A move does not invent keys: it deals the organization's existing keys, in their order,
 * out to its spaces in the new order. So keys stay unique and no later than the newest
 * creation (a space created afterwards still goes last), and only the spaces between the old
 * and the new place change key.
 */

/** A new space's key: last in its organization (creation times only grow). */
export function spacePosition(createdAt: string, id: string): string {
  return `${createdAt}/${id}`;
}

export interface Placed {
  id: string;
  position: string;
}

/**
 * The keys that change when `movedId` goes `side` of `targetId` among `spaces` (an
 * organization's, in list order): empty when the move changes nothing. Both must be in
 * `spaces`, and differ.
 */
export function moveKeys(
  spaces: readonly Placed[],
  movedId: string,
  targetId: string,
  side: 'before' | 'after',
): Placed[] {
  const moved = spaces.find((space) => space.id === movedId);
  const rest = spaces.filter((space) => space.id !== movedId);
  const at = rest.findIndex((space) => space.id === targetId);
  if (moved === undefined || at === -1) throw new Error('moveKeys: the spaces must be listed');
  const order = [...rest];
  order.splice(side === 'before' ? at : at + 1, 0, moved);
  const changed: Placed[] = [];
  order.forEach((space, index) => {
    const position = (spaces[index] as Placed).position;
    if (space.position !== position) changed.push({ id: space.id, position });
  });
  return changed;
}

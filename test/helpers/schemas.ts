import type { Static, TSchema } from 'typebox';
import type { ListSchema } from '../../src/http/pagination.js';

/**
 * A list the API answers (`ListSchema(item)`): `items`, `next` and `count` typed by the server's
 * own schemas, so that a test reads a response as the route declares it, not as re-typed here.
 */
export type ListOf<Item extends TSchema> = Static<ReturnType<typeof ListSchema<Item>>>;

/** A list of the API whose items a test reads as `Item` (an item's Static type, or a part of it). */
export type ListOfItems<Item> = Omit<ListOf<TSchema>, 'items'> & { items: Item[] };

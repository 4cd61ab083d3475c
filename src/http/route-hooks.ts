/** A route option that holds one hook or several (`onSend`, `preValidation`, …), as a list. */
export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

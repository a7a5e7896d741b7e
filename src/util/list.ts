/**
 * Lists inside messages, bounded: a message names the first few items and counts
 * the rest. A hostile (or just large) tree can pin one repository 20,000 times;
 * a message that joined every tag made each finding 600 kB and the report longer
 * than a JavaScript string can be.
 */

/** Items shown in full before the rest is counted. */
export const LIST_SHOWN = 8;

/** `a, b, c` or, past `shown` items, `a, b, … and 19,992 more`. */
export function listSome(items: readonly string[], shown = LIST_SHOWN, separator = ', '): string {
  if (items.length <= shown) return items.join(separator);
  return `${items.slice(0, shown).join(separator)}${separator}… and ${(items.length - shown).toLocaleString('en-US')} more`;
}

/** Append `value` to the list under `key` (in place: spreading a new list per item is quadratic). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Append every item to `list` in place (`list.push(...items)` overflows the stack past ~100,000 items). */
export function pushAll<T>(list: T[], items: readonly T[]): T[] {
  for (const item of items) list.push(item);
  return list;
}

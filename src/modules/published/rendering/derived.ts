/**
 * A value computed once per object and forgotten with it. The published site derives from
 * objects that stand for one version of something (the parsed settings of one settings version,
 * one read of a site's variants), so identity is a safe key and nothing needs evicting.
 */
export function derivedBy<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const values = new WeakMap<K, V>();
  return (key) => {
    if (values.has(key)) return values.get(key) as V;
    const value = compute(key);
    values.set(key, value);
    return value;
  };
}

/**
 * A copy of `object` (the same prototype and own fields) with `fields` replaced: how an adapter
 * sends a framework's tool changed in one field (a guarded `execute`, provider options without
 * deferred loading) without touching the user's tool or losing its class.
 */
export function withFields<T extends object>(object: T, fields: Partial<T>): T {
  const prototype = Object.getPrototypeOf(object) as object | null;
  if (prototype === Object.prototype) return { ...object, ...fields };
  return Object.assign(Object.create(prototype) as T, object, fields);
}

/** Finding privileged data where it must not be: JSON-ness, privileged keys, hidden values. */

/** Keys that name the protocol's privileged channels; a non-privileged view has none of them. */
const PRIVILEGED_KEYS = new Set(["latent", "privileged"]);

/**
 * Why `value` is not plain JSON data (the first offending path), or undefined when it is:
 * no undefined, functions, non-finite numbers, class instances, Maps or cycles.
 */
export function jsonProblem(
  value: unknown,
  path: string,
  seen = new Set<object>(),
): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path} is ${value}`;
  if (typeof value !== "object") return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} is a cycle`;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
    return `${path} is a ${proto?.constructor?.name ?? "non-plain"} object`;
  }
  seen.add(value);
  for (const [key, v] of Object.entries(value)) {
    const problem = jsonProblem(
      v,
      Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`,
      seen,
    );
    if (problem) return problem;
  }
  seen.delete(value);
  return undefined;
}

/** Privileged-channel keys anywhere in `value`, as paths. */
export function privilegedKeys(value: unknown, path = "$"): string[] {
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    return [...(PRIVILEGED_KEYS.has(key) ? [at] : []), ...privilegedKeys(v, at)];
  });
}

/** Does the character at `i` continue an identifier (so a match next to it is no token)? */
function isWordChar(text: string, i: number): boolean {
  return i >= 0 && i < text.length && /[A-Za-z0-9_]/.test(text[i] as string);
}

/**
 * The hidden strings that occur in `value` (its JSON text) as whole tokens: not inside a longer
 * identifier, so "cup_1" does not match "cup_12".
 */
export function leakedValues(value: unknown, hidden: string[]): string[] {
  const text = JSON.stringify(value) ?? "";
  return hidden.filter((h) => {
    const needle = JSON.stringify(h).slice(1, -1);
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      if (!isWordChar(text, at - 1) && !isWordChar(text, at + needle.length)) return true;
    }
    return false;
  });
}

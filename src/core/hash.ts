/** Stable hashing: canonical JSON (sorted keys) and sha256, never process-varying. */
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth, so equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    // A null-prototype target, so a "__proto__" key stays an ordinary property.
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Hex sha256 of a string. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Hex sha256 of a value's canonical JSON. */
export function hashValue(value: unknown): string {
  return sha256(canonicalJson(value));
}

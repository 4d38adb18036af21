/**
 * Stable hashing: canonical JSON (sorted keys) and sha256, never process-varying. sha256 is
 * @noble/hashes (audited, pure JS, no `node:` import), so a browser can load src/core.
 */
import { sha256 as sha256Bytes } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

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

/** sha256 digest of a string's UTF-8 bytes. */
export function sha256Digest(text: string): Uint8Array {
  return sha256Bytes(utf8ToBytes(text));
}

/** Hex sha256 of a string. */
export function sha256(text: string): string {
  return bytesToHex(sha256Digest(text));
}

/** Hex sha256 of a value's canonical JSON. */
export function hashValue(value: unknown): string {
  return sha256(canonicalJson(value));
}

/**
 * What a browser may import (docs/architecture.md): these modules and everything they import,
 * transitively, use no Node built-in and no package beyond the pure-JS ones listed here.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const BROWSER_ENTRIES = ["src/core/index.ts", "src/log/format.ts", "src/log/header.ts"];
const BROWSER_PACKAGES = [/^zod$/, /^@noble\/hashes\/[a-z0-9]+\.js$/];

/** Static import and export-from specifiers of a TypeScript file (type-only ones included). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)) {
    out.push(m[1] as string);
  }
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) out.push(m[1] as string);
  return out;
}

/** Every module reachable from `entry`, with the non-relative specifiers each one uses. */
function closure(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const stack = [resolve(ROOT, entry)];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    const external: string[] = [];
    seen.set(file, external);
    for (const spec of specifiers(file)) {
      if (spec.startsWith(".")) stack.push(resolve(dirname(file), spec));
      else external.push(spec);
    }
  }
  return seen;
}

describe("browser-safe modules", () => {
  for (const entry of BROWSER_ENTRIES) {
    it(`${entry} reaches no Node built-in`, () => {
      const bad: string[] = [];
      for (const [file, external] of closure(entry)) {
        for (const spec of external) {
          if (!BROWSER_PACKAGES.some((p) => p.test(spec))) {
            bad.push(`${relative(ROOT, file)} imports "${spec}"`);
          }
        }
      }
      expect(bad).toEqual([]);
    });
  }

  it("finds imports (so the check above is not vacuous)", () => {
    const core = closure("src/core/index.ts");
    expect(core.size).toBeGreaterThan(5);
    expect([...core.values()].flat()).toContain("zod");
    expect(closure("src/log/run-dir.ts").get(resolve(ROOT, "src/log/run-dir.ts"))).toContain(
      "node:fs",
    );
  });
});

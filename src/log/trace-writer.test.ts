import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { holdJson, jsonBytes, jsonPieces } from "../core/index.ts";
import { writeGzipJson } from "./trace-writer.ts";

const dir = mkdtempSync(join(tmpdir(), "lh-trace-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (path: string) => gunzipSync(readFileSync(path)).toString("utf8");

describe("writeGzipJson (the trace writer thread)", () => {
  it("writes exactly JSON.stringify's text of any JSON value, gzip'd, with no temporary left", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const path = join(dir, `v${n++}.json.gz`);
        await writeGzipJson(path, `${path}.tmp`, value);
        expect(read(path)).toBe(JSON.stringify(value));
      }),
      { numRuns: 60 },
    );
    expect(readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
  });

  it("keeps non-Latin-1 text and what JSON drops (undefined, functions) as JSON.stringify does", async () => {
    const value = { card: "that decision’s outcome 🤖", skip: undefined, f: () => 1, n: [1, -0] };
    const path = join(dir, "odd.json.gz");
    await writeGzipJson(path, `${path}.tmp`, value);
    expect(read(path)).toBe(JSON.stringify(value));
  });

  it("writes text beyond Latin-1 in any member exactly (members are encoded one by one)", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue({ stringUnit: "binary" })),
        async (value) => {
          const path = join(dir, `u${n++}.json.gz`);
          await writeGzipJson(path, `${path}.tmp`, value);
          expect(read(path)).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 60 },
    );
    const trace = {
      card: { rule: "that decision’s outcome 🤖" },
      steps: [{ a: 1 }],
      none: undefined,
    };
    const path = join(dir, "members.json.gz");
    await writeGzipJson(path, `${path}.tmp`, trace);
    expect(read(path)).toBe(JSON.stringify(trace));
  });

  it("writes members given as JSON pieces (text and bytes) in the value's key order", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ stringUnit: "binary" })),
        fc.jsonValue(),
        async (observations, card) => {
          const steps = observations.map((observation, step) => {
            const held = { step } as Record<string, unknown>;
            holdJson(held, "observation", jsonBytes(observation));
            held.action = { kind: "finish" };
            return held;
          });
          const plain = observations.map((observation, step) => ({
            step,
            observation,
            action: { kind: "finish" },
          }));
          const path = join(dir, `m${n++}.json.gz`);
          const value = { id: "e", steps: [], card, skipped: undefined };
          await writeGzipJson(path, `${path}.tmp`, value, { steps: jsonPieces(steps) });
          expect(read(path)).toBe(JSON.stringify({ ...value, steps: plain }));
        },
      ),
      { numRuns: 60 },
    );
    // A value the thread cannot receive (it holds a function) still gets its members spliced.
    const path = join(dir, "m-fn.json.gz");
    const value = { f: () => 1, steps: [], n: 1 };
    await writeGzipJson(path, `${path}.tmp`, value, { steps: ["[", jsonBytes({ a: "é" }), "]"] });
    expect(read(path)).toBe('{"steps":[{"a":"é"}],"n":1}');
  });

  it("rejects with the file system's error when the file cannot be written, and keeps working", async () => {
    const missing = join(dir, "no-such-folder", "t.json.gz");
    await expect(writeGzipJson(missing, `${missing}.tmp`, { a: 1 })).rejects.toThrow(/ENOENT/);
    expect(existsSync(missing)).toBe(false);
    const path = join(dir, "after.json.gz");
    await writeGzipJson(path, `${path}.tmp`, { a: 2 });
    expect(read(path)).toBe('{"a":2}');
  });
});

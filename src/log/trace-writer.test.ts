import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { heldJson, holdJson, jsonBytes, jsonPieces } from "../core/index.ts";
import { writeGzipJson } from "./trace-writer.ts";

const dir = mkdtempSync(join(tmpdir(), "lh-trace-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (path: string) => gunzipSync(readFileSync(path)).toString("utf8");

/** Write `value` through the thread as its JSON pieces. */
const write = (path: string, value: unknown) =>
  writeGzipJson(path, `${path}.tmp`, jsonPieces(value));

describe("writeGzipJson (the trace writer thread)", () => {
  it("writes exactly JSON.stringify's text of any JSON value, gzip'd, with no temporary left", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ stringUnit: "binary" }), async (value) => {
        const path = join(dir, `v${n++}.json.gz`);
        await write(path, value);
        expect(read(path)).toBe(JSON.stringify(value));
      }),
      { numRuns: 60 },
    );
    expect(readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
  });

  it.runIf(process.platform === "linux")(
    "writes from a thread at the lowest priority, beside an event loop at its own",
    async () => {
      await write(join(dir, "nice.json.gz"), { a: 1 });
      const nice = (task: string) =>
        Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
      expect(readdirSync("/proc/self/task").map(nice)).toContain(19);
      expect(nice(String(process.pid))).toBe(0);
    },
  );

  it("keeps non-Latin-1 text and what JSON drops (undefined, functions) as JSON.stringify does", async () => {
    const value = { card: "that decision’s outcome 🤖", skip: undefined, f: () => 1, n: [1, -0] };
    const path = join(dir, "odd.json.gz");
    await write(path, value);
    expect(read(path)).toBe(JSON.stringify(value));
  });

  it("writes a trace's held observations from their bytes, leaving them unparsed", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ stringUnit: "binary" })),
        fc.jsonValue({ stringUnit: "binary" }),
        async (observations, card) => {
          const steps = observations.map((observation, step) => {
            const held = { step } as Record<string, unknown>;
            holdJson(held, "observation", jsonBytes(observation));
            held.action = { kind: "finish" };
            return held;
          });
          const path = join(dir, `t${n++}.json.gz`);
          await write(path, { id: "e", card, steps, none: undefined });
          for (const step of steps) expect(heldJson(step, "observation")).toBeDefined();
          expect(read(path)).toBe(JSON.stringify({ id: "e", card, steps, none: undefined }));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("rejects with the file system's error when the file cannot be written, and keeps working", async () => {
    const missing = join(dir, "no-such-folder", "t.json.gz");
    await expect(write(missing, { a: 1 })).rejects.toThrow(/ENOENT/);
    expect(existsSync(missing)).toBe(false);
    const path = join(dir, "after.json.gz");
    await write(path, { a: 2 });
    expect(read(path)).toBe('{"a":2}');
  });
});

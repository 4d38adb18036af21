import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ToolCatalog } from "../../../agents/llm/index.ts";
import { type Action, LonghaulError, type TaskSpec } from "../../../core/index.ts";
import {
  AuthorsLineEncoder,
  AuthorsRow,
  authorsRow,
  ChatLineEncoder,
  OpenAiChatRow,
  openAiChatRow,
  splitOf,
} from "../../../training/index.ts";
import { compileSuite } from "../compiler.ts";
import { FAMILIES } from "../families/index.ts";
import { magmaRenderer } from "../renderer.ts";
import type { MagmaPayload } from "../types.ts";
import {
  disjointFingerprint,
  evaluationFingerprints,
  generateMagmaDataset,
  groupOf,
  MIN_DECISIONS,
  renameMap,
  TRAINING_FAMILIES,
  type TrainingTask,
  taskFingerprint,
  taskSamples,
  trainingTask,
  VARIANTS,
} from "./index.ts";

const SEED = "test-train";
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const outDir = () => mkdtempSync(join(tmpdir(), "lh-magma-ds-"));

/** One task per training family (indices 0..10 cycle through the 11 families). */
let tasks: TrainingTask[];
beforeAll(() => {
  tasks = TRAINING_FAMILIES.map((_, i) => trainingTask(SEED, i));
});

describe("training tasks (§4.4)", () => {
  it("are the 11 training families: Packaging (HO) is held out", () => {
    expect(TRAINING_FAMILIES).toHaveLength(11);
    expect(TRAINING_FAMILIES).not.toContain("packaging");
    expect(new Set(tasks.map((t) => t.family))).toEqual(new Set(TRAINING_FAMILIES));
  });

  it("need more than 40 decisions, and the expert's trace solves them", () => {
    for (const t of tasks) {
      expect(t.steps.length, t.id).toBeGreaterThan(MIN_DECISIONS);
      expect(t.steps.every((s) => s.action !== undefined)).toBe(true);
    }
  });

  it("have no stochastic failures and no missed detections (no faults, no failed skill)", () => {
    for (const t of tasks) {
      expect(
        t.spec.payload.stages.flatMap((s) => s.faults ?? []),
        t.id,
      ).toEqual([]);
      const failed = t.steps.flatMap((s) =>
        s.observation.events.filter(
          (e) => e.type === "skill" && (e.data as { status?: string })?.status !== "succeeded",
        ),
      );
      expect(failed, t.id).toEqual([]);
    }
  });

  it("include mission updates and interruptions among their conditions", () => {
    const conditions = new Set(
      Array.from({ length: 44 }, (_, i) => trainingTask(SEED, i).condition),
    );
    expect(conditions).toContain("MU");
    expect(conditions).toContain("IN");
  });

  it("are deterministic: the same seed and index give the same task", () => {
    const again = trainingTask(SEED, 3);
    expect(taskFingerprint(again.spec.payload)).toBe(
      taskFingerprint(tasks[3]?.spec.payload as MagmaPayload),
    );
    expect(again.steps.map((s) => s.action)).toEqual(tasks[3]?.steps.map((s) => s.action));
  });
});

describe("disjointness from the evaluation set", () => {
  it("no training task equals an evaluation spec of its family", () => {
    const evaluation = evaluationFingerprints(compileSuite({ families: "color-sorting,laundry" }));
    expect(evaluation.size).toBeGreaterThan(0);
    for (const t of tasks)
      expect(() =>
        disjointFingerprint({ id: t.id, payload: t.spec.payload }, evaluation),
      ).not.toThrow();
  });

  it("catches a planted overlap, in the check and in the generator", async () => {
    const spec = compileSuite({ families: "press-buttons" })[0] as TaskSpec<MagmaPayload>;
    const evaluation = evaluationFingerprints([spec]);
    // Realization text, budgets and faults do not hide an equal task.
    const planted = {
      ...spec.payload,
      stages: spec.payload.stages.map(
        ({ instruction: _i, target: _t, max: _m, faults: _f, ...s }) => s,
      ),
    };
    expect(() => disjointFingerprint({ id: "planted", payload: planted }, evaluation)).toThrow(
      /equals evaluation spec press-buttons-01/,
    );
    // A generator whose evaluation set holds its own first task stops loudly.
    const first = tasks[0] as TrainingTask;
    for (const workers of [1, 2]) {
      const failed = generateMagmaDataset({
        outDir: outDir(),
        seed: SEED,
        tasks: 2,
        evaluation: [first.spec],
        workers,
      });
      await expect(failed).rejects.toBeInstanceOf(LonghaulError);
      await expect(failed).rejects.toThrow(/equals evaluation spec train-000000/);
    }
  });

  it("refuses the evaluation seed", async () => {
    await expect(
      generateMagmaDataset({ outDir: outDir(), seed: "magma-bench-1", tasks: 1, evaluation: [] }),
    ).rejects.toThrow(/evaluation set's seed/);
  });
});

describe("rows and augmentations", () => {
  const variantsOf = (t: TrainingTask) => {
    const all = [...taskSamples(t, "g", SEED)];
    return VARIANTS.map((v) => all.filter((s) => s.variant === v));
  };

  it("three rows per decision: the source, a paraphrase and a renaming", () => {
    for (const t of tasks.slice(0, 3)) {
      const [source, para, rename] = variantsOf(t);
      expect(source).toHaveLength(t.steps.length);
      expect(para).toHaveLength(t.steps.length);
      expect(rename).toHaveLength(t.steps.length);
    }
  });

  it("a paraphrase changes the latest user instruction and nothing else", () => {
    for (const t of tasks) {
      const [source, para] = variantsOf(t);
      let changed = 0;
      for (const [i, s] of (source ?? []).entries()) {
        const a = authorsRow(s);
        const b = authorsRow((para ?? [])[i] as NonNullable<typeof s>);
        expect(b.target).toEqual(a.target);
        const diffs: [string, string][] = [];
        const walk = (x: unknown, y: unknown) => {
          if (typeof x === "string" && typeof y === "string") {
            if (x !== y) diffs.push([x, y]);
          } else if (x && typeof x === "object") {
            for (const k of Object.keys(x)) walk((x as never)[k], (y as never)[k]);
          } else expect(y).toEqual(x);
        };
        walk(a, b);
        // At most one utterance differs (twice in the row when it is the current instruction,
        // which the instruction field repeats); it is a user event's text, and the words differ.
        expect(new Set(diffs.map((d) => d[0])).size).toBeLessThanOrEqual(1);
        if (diffs.length > 0) {
          changed++;
          const [before, after] = diffs[0] as [string, string];
          expect(after).not.toBe(before);
          const userTexts = s.before
            .concat([s.step])
            .flatMap((st) =>
              st.observation.events.filter((e) => e.type === "user").map((e) => e.text),
            );
          expect(userTexts.some((u) => before.includes(u as string))).toBe(true);
        }
      }
      expect(changed, t.id).toBe(t.steps.length);
    }
  });

  it("a renaming is consistent: the target parses in the renamed tools and maps back to the source", () => {
    for (const t of tasks) {
      const family = (FAMILIES[t.family] as (typeof FAMILIES)[string]).family;
      const maps = [renameMap(family, t.spec.payload, 1), renameMap(family, t.spec.payload, 2)];
      const [source, , rename] = variantsOf(t);
      for (const [i, r] of (rename ?? []).entries()) {
        const row = openAiChatRow(r);
        const last = row.messages.at(-1) as {
          tool_calls: { id: string; function: { name: string; arguments: string } }[];
        };
        const parsed = new ToolCatalog(r.card).fromToolCalls(
          last.tool_calls.map((c) => ({
            id: c.id,
            name: c.function.name,
            argumentsJson: c.function.arguments,
          })),
        );
        expect(parsed.ok, `${t.id} row ${i}`).toBe(true);
        const action = (parsed as { action: Action }).action;
        const original = source?.[i]?.step.action as Action;
        // One of the two renamings maps this row's action back to the source's...
        const m = maps.find(
          (m) => JSON.stringify(inverse(action, m)) === JSON.stringify(withoutIds(original)),
        );
        expect(m, `${t.id} row ${i}`).toBeDefined();
        // ...and the whole row (input and target) names no token that renaming replaces.
        const values = new Set(Object.values(m?.tokens ?? {}));
        const text = JSON.stringify(authorsRow(r));
        const left = Object.entries(m?.tokens ?? {}).filter(
          ([k, v]) => k !== v && !values.has(k) && new RegExp(`\\b${k}\\b`).test(text),
        );
        expect(left, `${t.id} row ${i}`).toEqual([]);
        if (action.kind === "tool") {
          const robots = (r.step.observation.view as { attributes: { known_robots: string[] } })
            .attributes.known_robots;
          for (const c of action.calls) expect(robots).toContain(c.robot);
        }
      }
    }
  });

  it("the streaming encoders write exactly the rows the export sft renderers make", () => {
    for (const t of tasks.slice(0, 4)) {
      const chat = new ChatLineEncoder();
      const authors = new AuthorsLineEncoder();
      for (const s of taskSamples(t, "g", SEED)) {
        expect(chat.line(s).toString()).toBe(`${JSON.stringify(openAiChatRow(s))}\n`);
        expect(authors.line(s).toString()).toBe(`${JSON.stringify(authorsRow(s))}\n`);
      }
    }
  });

  it("uses the magma harness prompt", () => {
    const s = taskSamples(tasks[0] as TrainingTask, "g", SEED).next().value;
    const row = openAiChatRow(s as never);
    expect(row.messages[0]).toEqual({
      role: "system",
      content: magmaRenderer.system((s as { card: never }).card),
    });
  });
});

/** An action of a renamed world read back in canonical names (call ids dropped). */
function inverse(action: Action, map: ReturnType<typeof renameMap>): Action {
  const tokens = new Map(Object.entries(map.tokens).map(([k, v]) => [v, k]));
  const params = new Map(Object.entries(map.params).map(([k, v]) => [v, k]));
  const text = (s: string) => s.replace(/[A-Za-z0-9_]+/g, (w) => tokens.get(w) ?? w);
  if (action.kind === "say") return { kind: "say", text: text(action.text) };
  if (action.kind !== "tool") return action;
  return {
    kind: "tool",
    calls: action.calls.map((c) => ({
      tool: text(c.tool),
      args: Object.fromEntries(
        Object.entries(c.args).map(([k, v]) => [params.get(k) ?? k, text(String(v))]),
      ),
      ...(c.robot !== undefined ? { robot: text(c.robot) } : {}),
    })),
  };
}

function withoutIds(action: Action): Action {
  if (action.kind !== "tool") return action;
  return {
    kind: "tool",
    calls: action.calls.map(({ id: _id, ...c }) => ({
      tool: c.tool,
      args: c.args,
      ...(c.robot !== undefined ? { robot: c.robot } : {}),
    })),
  };
}

describe("generateMagmaDataset", () => {
  it("is deterministic: the same seed writes byte-identical files, whatever the workers", async () => {
    const a = await generateMagmaDataset({
      outDir: outDir(),
      seed: SEED,
      tasks: 4,
      evaluation: [],
      valFraction: 0.3,
    });
    const b = await generateMagmaDataset({
      outDir: outDir(),
      seed: SEED,
      tasks: 4,
      evaluation: [],
      valFraction: 0.3,
      workers: 2,
    });
    expect(a.files.map((f) => f.sha256)).toEqual(b.files.map((f) => f.sha256));
    for (const [i, f] of a.files.entries()) {
      expect(
        readFileSync(f.path).equals(readFileSync((b.files[i] as (typeof b.files)[number]).path)),
      ).toBe(true);
      expect(sha256(f.path)).toBe(f.sha256);
    }
    const c = await generateMagmaDataset({
      outDir: outDir(),
      seed: `${SEED}-other`,
      tasks: 4,
      evaluation: [],
    });
    expect(c.files[0]?.sha256).not.toBe(a.files[0]?.sha256);
  });

  it("every row parses with its schema; the manifest counts families and splits", async () => {
    const r = await generateMagmaDataset({
      outDir: outDir(),
      seed: SEED,
      tasks: 11,
      evaluation: [],
      valFraction: 0.2,
    });
    for (const f of r.files) {
      const rows = lines(f.path);
      expect(rows).toHaveLength(f.rows);
      const schema = f.format === "openai" ? OpenAiChatRow : AuthorsRow;
      for (const l of rows) schema.parse(JSON.parse(l));
    }
    const manifest = JSON.parse(readFileSync(r.manifest, "utf8"));
    expect(manifest.generator.version).toBe(r.generatorVersion);
    expect(manifest.seed).toBe(SEED);
    expect(Object.keys(manifest.families).sort()).toEqual([...TRAINING_FAMILIES].sort());
    const total = Object.values(
      manifest.families as Record<string, { train: number; validation: number }>,
    ).reduce((n, c) => n + c.train + c.validation, 0);
    expect(total).toBe(r.rows.train + r.rows.validation);
    expect(total).toBe(3 * tasks.reduce((n, t) => n + t.steps.length, 0));
  });

  it("keeps every row and augmentation of a task in one partition (grouped split)", async () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.string({ minLength: 1, maxLength: 8 }),
        (fraction, seed) => {
          // Every sample of a task carries its group, so its split.
          for (const t of tasks.slice(0, 3)) {
            const group = groupOf(t, taskFingerprint(t.spec.payload));
            const splits = new Set(
              [...taskSamples(t, group, seed)].map((s) => splitOf(s.group, fraction, seed)),
            );
            expect(splits.size).toBe(1);
          }
        },
      ),
      { numRuns: 20 },
    );
    // End to end: validation rows are exactly three per decision of the validation tasks.
    const r = await generateMagmaDataset({
      outDir: outDir(),
      seed: SEED,
      tasks: 11,
      evaluation: [],
      valFraction: 0.5,
    });
    const expected = { train: 0, validation: 0 };
    for (const t of tasks) {
      const split = splitOf(groupOf(t, taskFingerprint(t.spec.payload)), 0.5, SEED);
      expected[split] += 3 * t.steps.length;
    }
    expect(r.rows).toEqual(expected);
    expect(r.groups.train + r.groups.validation).toBe(11);
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { type Suite, suiteHash } from "../core/index.ts";
import { getSuite, suiteListing, suiteStats } from "./catalog.ts";
import { registerSuite } from "./registry.ts";
import { defaultCacheDir, hashSources, SuiteCache } from "./suite-cache.ts";
import { transductionSuite } from "./transduction/index.ts";

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** A grid suite under `id` that counts its compiles; its sources are a temp directory. */
function countingSuite(id: string) {
  const grid = gridSuite(1);
  const counter = { compiles: 0, loads: 0 };
  const suite: Suite = {
    ...(grid as Suite),
    id,
    compile: (options) => {
      counter.compiles++;
      return grid.compile(options).map((spec) => ({ ...spec, suite: id }));
    },
    stats: (specs) => ({ suite: id, tables: [], summary: { specs: specs.length } }),
  };
  const sources = tmp("lh-src-");
  writeFileSync(join(sources, "index.js"), "export const version = 1;\n");
  registerSuite({
    id,
    title: id,
    load: async () => {
      counter.loads++;
      return suite;
    },
    sources: [sources],
  });
  return { counter, sources, cache: tmp("lh-cache-") };
}

describe("compile cache", () => {
  it("finds the cache directory from LONGHAUL_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache", () => {
    expect(defaultCacheDir({ LONGHAUL_CACHE_DIR: "/c", XDG_CACHE_HOME: "/x" })).toBe("/c");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x" })).toBe("/x/longhaul");
    expect(defaultCacheDir({})).toMatch(/\/\.cache\/longhaul$/);
  });

  it("compiles once per key: options and the content of files they name are part of it", async () => {
    const { counter, cache } = countingSuite("cached-a");
    const suite = await getSuite("cached-a", { cache });
    const first = suite.compile();
    expect(suite.compile()).toEqual(first);
    expect(counter.compiles).toBe(1);
    suite.compile({ seed: "other" });
    expect(counter.compiles).toBe(2);
    // A second process: the same files answer.
    expect((await getSuite("cached-a", { cache })).compile()).toEqual(first);
    expect(counter.compiles).toBe(2);

    const family = join(tmp("lh-family-"), "family.yaml");
    writeFileSync(family, "id: one\n");
    suite.compile({ familyFile: family });
    suite.compile({ familyFile: family });
    expect(counter.compiles).toBe(3);
    writeFileSync(family, "id: two\n");
    suite.compile({ familyFile: family });
    expect(counter.compiles).toBe(4);

    // A directory option is keyed by the content of the files under it.
    const source = tmp("lh-source-");
    mkdirSync(join(source, "tasks"));
    writeFileSync(join(source, "tasks", "a.json"), "{}");
    suite.compile({ source });
    suite.compile({ source });
    expect(counter.compiles).toBe(5);
    writeFileSync(join(source, "tasks", "a.json"), '{"changed": true}');
    suite.compile({ source });
    expect(counter.compiles).toBe(6);
  });

  it("without a cache option compiles every time and writes nothing", async () => {
    const { counter } = countingSuite("uncached");
    const suite = await getSuite("uncached");
    suite.compile();
    suite.compile();
    expect(counter.compiles).toBe(2);
  });

  it("changes the key when any source file changes, but not for tests or declarations", () => {
    const dir = tmp("lh-sources-");
    mkdirSync(join(dir, "nested"));
    writeFileSync(join(dir, "nested", "a.js"), "1");
    const before = hashSources([dir]);
    writeFileSync(join(dir, "a.test.ts"), "test");
    writeFileSync(join(dir, "nested", "a.d.ts"), "declare");
    expect(hashSources([dir])).toBe(before);
    writeFileSync(join(dir, "nested", "a.js"), "2");
    const edited = hashSources([dir]);
    expect(edited).not.toBe(before);
    writeFileSync(join(dir, "families.yaml"), "data");
    expect(hashSources([dir])).not.toBe(edited);
  });

  it("replaces the file of older sources and ignores corrupt or foreign files", () => {
    const dir = tmp("lh-cache-");
    const [a, b] = [tmp("lh-a-"), tmp("lh-b-")];
    writeFileSync(join(a, "x.js"), "a");
    writeFileSync(join(b, "x.js"), "b");
    let computed = 0;
    const compute = () => ({ n: ++computed });
    const accept = (v: unknown) => typeof v === "object" && v !== null && "n" in v;
    expect(new SuiteCache(dir, [a]).memo("s", "specs", {}, compute, accept)).toEqual({ n: 1 });
    expect(new SuiteCache(dir, [b]).memo("s", "specs", {}, compute, accept)).toEqual({ n: 2 });
    const files = readdirSync(join(dir, "s"));
    expect(files).toHaveLength(1);
    const file = join(dir, "s", files[0]!);

    writeFileSync(file, '{"key": {"trunc');
    expect(new SuiteCache(dir, [b]).memo("s", "specs", {}, compute, accept)).toEqual({ n: 3 });
    expect(JSON.parse(readFileSync(file, "utf8")).value).toEqual({ n: 3 });

    const stored = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...stored, key: { ...stored.key, suite: "t" } }));
    expect(new SuiteCache(dir, [b]).memo("s", "specs", {}, compute, accept)).toEqual({ n: 4 });
    writeFileSync(file, JSON.stringify({ ...stored, value: "not specs" }));
    expect(new SuiteCache(dir, [b]).memo("s", "specs", {}, compute, accept)).toEqual({ n: 5 });
  });

  it("never fails a command when the cache cannot be written", async () => {
    const blocker = join(tmp("lh-cache-"), "file");
    writeFileSync(blocker, "not a directory");
    const { counter } = countingSuite("unwritable");
    const suite = await getSuite("unwritable", { cache: blocker });
    expect(suite.compile()).toHaveLength(suite.compile().length);
    expect(counter.compiles).toBe(2);
  });

  it("answers cached listings and statistics without loading the suite's module", async () => {
    const { counter, sources, cache } = countingSuite("listed");
    const listing = await suiteListing("listed", { cache });
    expect(listing).toMatchObject({ id: "listed", episodes: 3, subsets: { small: 1 } });
    expect(await suiteStats("listed", { cache })).toMatchObject({ summary: { specs: 3 } });
    expect(counter).toEqual({ compiles: 1, loads: 1 });

    // What another process finds in the cache: a suite whose module would fail to load.
    const stored = new SuiteCache(cache, [sources]);
    const accept = () => true;
    stored.memo(
      "unloadable",
      "listing",
      undefined,
      () => ({ ...listing, id: "unloadable" }),
      accept,
    );
    stored.memo("unloadable", "stats", undefined, () => ({ suite: "x", tables: [] }), accept);
    registerSuite({
      id: "unloadable",
      title: "unloadable",
      load: () => Promise.reject(new Error("loaded")),
      sources: [sources],
    });
    expect(await suiteListing("unloadable", { cache })).toMatchObject({ id: "unloadable" });
    expect(await suiteStats("unloadable", { cache })).toEqual({ suite: "x", tables: [] });
    await expect(suiteListing("unloadable", { cache: false })).rejects.toThrow("loaded");
  });

  it("serves transduction's specs from the cache unchanged, with the same hash", async () => {
    const cache = tmp("lh-cache-");
    await getSuite("transduction", { cache }).then((s) => s.compile());
    const cached = (await getSuite("transduction", { cache })).compile();
    const fresh = transductionSuite.compile();
    expect(cached).toEqual(fresh);
    expect(suiteHash(transductionSuite, cached)).toBe(suiteHash(transductionSuite, fresh));
  });
});

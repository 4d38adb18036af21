/**
 * The suite registry: suites by id, each loaded by a dynamic import on first use, so
 * `longhaul --help` loads no suite and a command on one suite loads only that one. This module
 * stays light (no zod, no suite code): it imports two core files directly rather than the
 * core index, which would load the wire schemas.
 */
import { fileURLToPath } from "node:url";
import { LonghaulError } from "../core/errors.ts";
import { unknownNameMessage } from "../core/suggest.ts";
import type { Suite } from "../core/suite.ts";

/** How a suite registers: listed without loading, loaded by `load` on first use. */
export interface SuiteEntry<P = unknown> {
  id: string;
  title: string;
  /** Import the suite's module and return the suite; called at most once per process. */
  load(): Promise<Suite<P>>;
  /**
   * Files and directories whose content determines what the suite compiles. Given, compiled
   * specs, listings and statistics are cached on disk, keyed by that content (see
   * SuiteCache); left out, the suite is never cached.
   */
  sources?: string[];
}

/** The code root (src/, or dist/ in the package): every built-in suite keys its cache on it. */
const CODE_ROOT = fileURLToPath(new URL("..", import.meta.url));

const entries: SuiteEntry[] = [
  {
    id: "robograph",
    title: "RoboGraphBench: task-state horizons for embodied agents",
    load: async () => (await import("./robograph/index.ts")).robographSuite as Suite,
    sources: [CODE_ROOT],
  },
  {
    id: "continual",
    title: "EmbodiedCLBench: continual learning from basic to composed household tasks",
    load: async () => (await import("./continual/index.ts")).continualSuite as Suite,
    sources: [CODE_ROOT],
  },
  {
    id: "transduction",
    title: "Long-Transduction: staying on task over long read-mutate-write documents",
    load: async () => (await import("./transduction/index.ts")).transductionSuite as Suite,
    sources: [CODE_ROOT],
  },
  {
    id: "playground",
    title: "Embodied Playground (EP-100): Launch and Tower on MuJoCo",
    load: async () => (await import("./playground/index.ts")).playgroundSuite as Suite,
    sources: [CODE_ROOT],
  },
];

const loaded = new Map<string, Promise<Suite>>();

/** Register a suite; an id already taken is a USAGE error (nothing is replaced silently). */
export function registerSuite<P>(entry: SuiteEntry<P>): void {
  if (entries.some((e) => e.id === entry.id)) {
    throw new LonghaulError("USAGE", `a suite "${entry.id}" is already registered`);
  }
  // Suites are generic in their payload; the registry erases it, as callers only pass specs back.
  entries.push(entry as unknown as SuiteEntry);
}

/** Every registered suite, in listing order, without loading any. */
export function suiteEntries(): readonly SuiteEntry[] {
  return entries;
}

/** The entry of suite `id`, or a USAGE error with the closest ids. */
export function suiteEntry(id: string): SuiteEntry {
  const entry = entries.find((e) => e.id === id);
  if (entry) return entry;
  throw new LonghaulError(
    "USAGE",
    unknownNameMessage(
      "suite",
      id,
      entries.map((e) => e.id),
    ),
  );
}

/** Load the suite of `entry` (once per process); its id must be the entry's. */
export function loadSuite(entry: SuiteEntry): Promise<Suite> {
  let suite = loaded.get(entry.id);
  if (!suite) {
    suite = entry.load().then((s) => {
      if (s.id !== entry.id) {
        throw new LonghaulError("RUNTIME", `suite entry "${entry.id}" loaded suite "${s.id}"`);
      }
      return s;
    });
    loaded.set(entry.id, suite);
  }
  return suite;
}

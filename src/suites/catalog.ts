/**
 * Suites as commands use them: loaded by id, with compile(), listings and statistics served
 * from the on-disk cache when asked to. A cached listing or statistics table is answered
 * without loading the suite's module.
 */
import type { CompileOptions, StatsModel, Suite, TaskSpec } from "../core/index.ts";
// The suite file, not the core index: a warm `longhaul list` must not load the wire schemas.
import { suiteHash } from "../core/suite.ts";
import { loadSuite, type SuiteEntry, suiteEntry } from "./registry.ts";
import { defaultCacheDir, SuiteCache } from "./suite-cache.ts";

/** Options for getting a suite. */
export interface GetSuiteOptions {
  /**
   * Cache compile products on disk: true for the user cache directory (defaultCacheDir), or a
   * directory. Default false: a library caller gets the suite as it is.
   */
  cache?: boolean | string;
}

/** A suite's listing: identity, content hash and counts per subset. */
export interface SuiteListing {
  id: string;
  version: string;
  title: string;
  hash: string;
  episodes: number;
  families: string[];
  subsets: Record<string, number>;
  dimensions: string[];
}

function cacheOf(entry: SuiteEntry, options: GetSuiteOptions): SuiteCache | undefined {
  if (!options.cache || !entry.sources) return undefined;
  const dir = typeof options.cache === "string" ? options.cache : defaultCacheDir();
  return new SuiteCache(dir, entry.sources);
}

const isSpecsOf = (id: string) => (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (s) => typeof s === "object" && s !== null && s.suite === id && typeof s.id === "string",
  );

/** `suite` whose compile() reads and fills `cache`; every other member is the suite's own. */
function cachedSuite(suite: Suite, cache: SuiteCache): Suite {
  const cached = Object.create(suite) as Suite;
  cached.compile = (options?: CompileOptions) =>
    cache.memo(suite.id, "specs", options, () => suite.compile(options), isSpecsOf(suite.id));
  return cached;
}

async function open(entry: SuiteEntry, cache: SuiteCache | undefined): Promise<Suite> {
  const suite = await loadSuite(entry);
  return cache ? cachedSuite(suite, cache) : suite;
}

/** The suite `id`, loaded on first use; unknown ids are USAGE errors with the closest ids. */
export async function getSuite(id: string, options: GetSuiteOptions = {}): Promise<Suite> {
  const entry = suiteEntry(id);
  return open(entry, cacheOf(entry, options));
}

/** Describe a compiled suite. */
export function describeSuite(suite: Suite, specs: TaskSpec[]): SuiteListing {
  const subsets = Object.fromEntries(
    Object.entries(suite.subsets).map(([name, keep]) => [name, specs.filter(keep).length]),
  );
  return {
    id: suite.id,
    version: suite.version,
    title: suite.title,
    hash: suiteHash(suite, specs),
    episodes: specs.length,
    families: [...new Set(specs.map((s) => s.family))],
    subsets,
    dimensions: suite.dimensions,
  };
}

/**
 * The listing of suite `id` with its default compile. With `options.cache`, a cached listing
 * is answered without loading the suite's module.
 */
export async function suiteListing(
  id: string,
  options: GetSuiteOptions = {},
): Promise<SuiteListing> {
  const entry = suiteEntry(id);
  const cache = cacheOf(entry, options);
  const compute = async () => {
    const suite = await open(entry, cache);
    return describeSuite(suite, suite.compile());
  };
  if (!cache) return compute();
  const accept = (v: unknown) =>
    typeof v === "object" && v !== null && (v as SuiteListing).id === id;
  return cache.memoAsync(id, "listing", undefined, compute, accept);
}

/**
 * Statistics of suite `id` compiled with `compile`, or undefined when the suite has none.
 * With `options.cache`, cached statistics are answered without loading the suite's module.
 */
export async function suiteStats(
  id: string,
  options: GetSuiteOptions = {},
  compile?: CompileOptions,
): Promise<StatsModel | undefined> {
  const entry = suiteEntry(id);
  const cache = cacheOf(entry, options);
  const compute = async () => {
    const suite = await open(entry, cache);
    return suite.stats ? suite.stats(suite.compile(compile)) : null;
  };
  // A suite without statistics is cached as null, so asking again loads nothing either.
  const stats = cache
    ? await cache.memoAsync(id, "stats", compile, compute, (v) => v === null || isStats(v))
    : await compute();
  return stats ?? undefined;
}

function isStats(value: unknown): boolean {
  return typeof value === "object" && value !== null && Array.isArray((value as StatsModel).tables);
}

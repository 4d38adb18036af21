/** Public surface of the suites: the registry, the compile cache and the built-in suites by id. */
export {
  describeSuite,
  type GetSuiteOptions,
  getSuite,
  type SuiteListing,
  suiteListing,
  suiteStats,
} from "./catalog.ts";
export {
  loadSuite,
  registerSuite,
  type SuiteEntry,
  suiteEntries,
  suiteEntry,
} from "./registry.ts";
export { defaultCacheDir, hashSources, SuiteCache, sourcesFingerprint } from "./suite-cache.ts";

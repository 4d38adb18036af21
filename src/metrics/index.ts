/** Statistics shared by suites and reports: rates, intervals, pass@k, paired and balanced means. */
export { groupBalancedMean, nestedBalancedMean } from "./balanced.ts";
export {
  type BootstrapOptions,
  bootstrapCi,
  bootstrapMean,
  bootstrapMeans,
  DEFAULT_BOOTSTRAP_SEED,
  type Estimate,
} from "./bootstrap.ts";
export { groupBy } from "./group.ts";
export { mcnemarExact, type PairedOutcomes, pairedOutcomes } from "./paired.ts";
export { type Attempt, firstKValidPassAtK, passAtK } from "./pass-at-k.ts";
export { mean, type RateInterval, wilson } from "./rates.ts";

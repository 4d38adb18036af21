/** Public surface of the conformance checker (`longhaul check`). */
export {
  type CheckOptions,
  type CheckResult,
  checkSuite,
  firstDifference,
  type SuiteCheckReport,
} from "./check-suite.ts";
export { jsonProblem, leakedValues, privilegedKeys } from "./leaks.ts";

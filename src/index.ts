/**
 * The longhaul library: the protocol (suite and agent interfaces, wire types), the suite and
 * agent registries, the episode session and the runner, run logs, the conformance checker,
 * metrics and reports. Subpaths (`longhaul/core`,
 * `longhaul/suites/robograph`, ...) expose each area alone; see docs/library.md.
 */

// The zod that validates longhaul's options and wire types, for agent option schemas.
export { z } from "zod";
export * from "./agents/index.ts";
export * from "./check/index.ts";
export * from "./core/index.ts";
export * from "./log/index.ts";
export * from "./metrics/index.ts";
export * from "./report/index.ts";
export * from "./run/index.ts";
export * from "./suites/index.ts";
export * from "./training/index.ts";

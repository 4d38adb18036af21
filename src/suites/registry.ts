/** The built-in suites, by id. */
import { LonghaulError, type Suite } from "../core/index.ts";
import { playgroundSuite } from "./playground/index.ts";
import { robographSuite } from "./robograph/index.ts";
import { transductionSuite } from "./transduction/index.ts";

// Suites are generic in their payload; the registry erases it, as the CLI only passes specs back.
const SUITES = [robographSuite, transductionSuite, playgroundSuite] as unknown as Suite[];

/** Every built-in suite, in listing order. */
export function allSuites(): Suite[] {
  return SUITES;
}

/** The suite `id`, or a USAGE error that lists the known ids. */
export function getSuite(id: string): Suite {
  const suite = SUITES.find((s) => s.id === id);
  if (!suite) {
    const known = SUITES.map((s) => s.id).join(", ") || "(none)";
    throw new LonghaulError("USAGE", `unknown suite "${id}"; known suites: ${known}`);
  }
  return suite;
}

/** V8's full GC for tests of what stays reachable (vitest's workers run without --expose-gc). */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Run a full garbage collection now. */
export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

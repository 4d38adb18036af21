/**
 * The Node flags `longhaul serve` runs under (the CLI starts itself again with them unless told
 * not to). `--initial-old-space-size=512`: V8 otherwise sizes its old generation to the small
 * live heap of a server and runs a full, compacting GC every second or two under load, a pause
 * of 4-10 ms for every open episode; with room to grow, full GCs come when ~0.5 GB has been
 * promoted or external memory calls for one (bench/RESULTS.md, session 7: the 64-socket p99 at
 * 1,200 steps/s 0.54-0.85x). Node takes the flag only on its command line.
 */
export const SERVE_NODE_FLAGS: readonly string[] = ["--initial-old-space-size=512"];

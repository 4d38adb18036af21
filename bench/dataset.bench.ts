/**
 * `longhaul dataset magma` at the paper's scale (§4.4: 261,646 + 13,574 rows with
 * augmentations), goal < 60 s and < 1 GB memory: the evaluation suite is compiled first (the
 * disjointness check needs its fingerprints; timed apart, since the CLI reads it from the
 * compile cache), then the full default dataset is generated in both formats with the 5%
 * grouped split. `BENCH_SCALE=0.1` runs a tenth. Run with `npx tsx bench/dataset.bench.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMagmaDataset } from "../src/suites/magma/dataset/index.ts";
import { compileSuite } from "../src/suites/magma/index.ts";

const scale = Number(process.env.BENCH_SCALE ?? 1);
let started = performance.now();
const evaluation = compileSuite();
process.stdout.write(
  `compiled ${evaluation.length} evaluation specs in ${((performance.now() - started) / 1000).toFixed(1)} s (not in the time below)\n`,
);
// In this thread, then on two worker threads (loaded through tsx here, so each worker also
// pays for transpiling the sources; a built package does not).
for (const workers of [1, 2]) {
  const dir = mkdtempSync(join(tmpdir(), "lh-dataset-bench-"));
  // Peak memory of this process (the workers' heaps are inside it): sampled after every task.
  let peakRss = 0;
  const cpu = process.cpuUsage();
  started = performance.now();
  const result = await generateMagmaDataset({
    outDir: dir,
    scale,
    evaluation,
    workers,
    onProgress: () => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const gib = result.files.reduce((n, f) => n + f.bytes, 0) / 2 ** 30;
  process.stdout.write(
    `dataset magma (scale ${scale}, ${workers} worker${workers > 1 ? "s" : ""}): ${result.tasks.total} tasks, ` +
      `${result.rows.train} + ${result.rows.validation} rows, ${gib.toFixed(2)} GiB in ${result.files.length} files: ` +
      `${seconds.toFixed(1)} s (cpu ${((used.user + used.system) / 1e6).toFixed(1)} s), peak rss ${(peakRss / 2 ** 20).toFixed(0)} MiB (goal < 60 s, < 1 GB)\n`,
  );
  rmSync(dir, { recursive: true, force: true });
}

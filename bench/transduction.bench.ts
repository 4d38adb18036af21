/**
 * Transduction bench: generate the full 1,440-document grid (goal < 60 s), verify the
 * oracle's 1,440 outputs (goal < 10 s), peak memory (goal < 1 GB), and the mean prompt and
 * required-output tokens at 128K (paper: 65,374 and 61,240).
 * Run: npx tsx bench/transduction.bench.ts
 */
import {
  DEFAULT_SEED,
  generateDocument,
  gridParams,
  referenceOutput,
  scoreOutput,
} from "../src/suites/transduction/index.ts";

const grid = gridParams(DEFAULT_SEED, "o200k_base");
let generateMs = 0;
let verifyMs = 0;
let tokens = 0;
let exact = 0;
const at128 = { docs: 0, prompt: 0, output: 0 };
const started = performance.now();
const cpuStart = process.cpuUsage();
for (const params of grid) {
  let t = performance.now();
  const doc = generateDocument(params);
  generateMs += performance.now() - t;
  tokens += doc.tokens.prompt + doc.tokens.output;
  if (params.horizonK === 128) {
    at128.docs++;
    at128.prompt += doc.tokens.prompt;
    at128.output += doc.tokens.output;
  }
  const output = referenceOutput("oracle", doc.expected);
  t = performance.now();
  if (scoreOutput(doc.expected, output).exact) exact++;
  verifyMs += performance.now() - t;
}
const wallMs = performance.now() - started;
const cpuMs = process.cpuUsage(cpuStart).user / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;

console.log(
  `generate: ${grid.length} documents, ${(tokens / 1e6).toFixed(1)}M tokens in ${(generateMs / 1000).toFixed(1)} s (${(((tokens / generateMs) * 1000) / 1e6).toFixed(2)}M tokens/s)`,
);
console.log(
  `verify: ${grid.length} oracle outputs in ${(verifyMs / 1000).toFixed(2)} s, ${exact} exactly complete`,
);
console.log(
  `wall: ${(wallMs / 1000).toFixed(1)} s (user CPU ${(cpuMs / 1000).toFixed(1)} s); peak RSS: ${peakMb.toFixed(0)} MB`,
);
console.log(
  `128K: mean prompt ${Math.round(at128.prompt / at128.docs)} tokens, mean required output ${Math.round(at128.output / at128.docs)} tokens (${at128.docs} documents)`,
);

/**
 * Transduction bench: generate the full 1,440-document grid (goal < 60 s), verify the
 * oracle's 1,440 outputs (goal < 10 s), peak memory (goal < 1 GB), the mean prompt and
 * required-output tokens per horizon (paper, 128K tier: 65,374 and 61,240), and the mean
 * accuracy of the reference agents (outside the timings).
 * Run: npx tsx bench/transduction.bench.ts [tokenizer]   (cl100k_base by default)
 */
import {
  DEFAULT_SEED,
  DEFAULT_TOKENIZER,
  generateDocument,
  gridParams,
  REFERENCE_KINDS,
  referenceOutput,
  scoreOutput,
} from "../src/suites/transduction/index.ts";

const tokenizer = process.argv[2] === "o200k_base" ? "o200k_base" : DEFAULT_TOKENIZER;
const grid = gridParams(DEFAULT_SEED, tokenizer);
let generateMs = 0;
let verifyMs = 0;
// CPU time too: the machine is shared, and wall time alone hides how busy it was.
let generateCpuMs = 0;
let verifyCpuMs = 0;
const cpuSince = (start: NodeJS.CpuUsage) => process.cpuUsage(start).user / 1000;
let tokens = 0;
let exact = 0;
const tiers = new Map<number, { docs: number; prompt: number; output: number; worst: number }>();
// Mean accuracy of each reference agent by kind of stream.
const agents = new Map<string, { sum: number; n: number }>();
const started = performance.now();
const cpuStart = process.cpuUsage();
for (const params of grid) {
  let t = performance.now();
  let cpu = process.cpuUsage();
  const doc = generateDocument(params);
  generateMs += performance.now() - t;
  generateCpuMs += cpuSince(cpu);
  tokens += doc.tokens.prompt + doc.tokens.output;
  const tier = tiers.get(params.horizonK) ?? { docs: 0, prompt: 0, output: 0, worst: 0 };
  tier.docs++;
  tier.prompt += doc.tokens.prompt;
  tier.output += doc.tokens.output;
  const deviation = Math.abs((doc.tokens.prompt + doc.tokens.output) / doc.tokens.target - 1);
  tier.worst = Math.max(tier.worst, deviation);
  tiers.set(params.horizonK, tier);
  const output = referenceOutput("oracle", doc.expected);
  t = performance.now();
  cpu = process.cpuUsage();
  if (scoreOutput(doc.expected, output).exact) exact++;
  verifyMs += performance.now() - t;
  verifyCpuMs += cpuSince(cpu);
  const stream =
    params.task === "table"
      ? "tables"
      : params.format === "unnumbered"
        ? "unnumbered lines"
        : "numbered lines";
  for (const kind of REFERENCE_KINDS) {
    const key = `${kind}\t${stream}`;
    const entry = agents.get(key) ?? { sum: 0, n: 0 };
    entry.sum += scoreOutput(doc.expected, referenceOutput(kind, doc.expected)).accuracy;
    entry.n++;
    agents.set(key, entry);
  }
}
const wallMs = performance.now() - started;
const cpuMs = process.cpuUsage(cpuStart).user / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;

console.log(`tokenizer: ${tokenizer}`);
console.log(
  `generate: ${grid.length} documents, ${(tokens / 1e6).toFixed(1)}M tokens in ${(generateMs / 1000).toFixed(1)} s (user CPU ${(generateCpuMs / 1000).toFixed(1)} s; ${(((tokens / generateMs) * 1000) / 1e6).toFixed(2)}M tokens/s)`,
);
console.log(
  `verify: ${grid.length} oracle outputs in ${(verifyMs / 1000).toFixed(2)} s (user CPU ${(verifyCpuMs / 1000).toFixed(2)} s), ${exact} exactly complete`,
);
console.log(
  `wall: ${(wallMs / 1000).toFixed(1)} s with the reference agents (user CPU ${(cpuMs / 1000).toFixed(1)} s); peak RSS: ${peakMb.toFixed(0)} MB`,
);
for (const [h, t] of tiers) {
  console.log(
    `${h}K: mean prompt ${Math.round(t.prompt / t.docs)}, mean required output ${Math.round(t.output / t.docs)} tokens (${t.docs} documents, worst deviation ${(t.worst * 100).toFixed(1)}%)`,
  );
}
for (const [key, { sum, n }] of agents) {
  const [kind, stream] = key.split("\t");
  console.log(`${kind} on ${stream}: mean accuracy ${(sum / n).toFixed(4)} (${n} documents)`);
}

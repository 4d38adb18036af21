/**
 * longhaul as a library (docs/library.md): a custom agent on a built-in suite, then a custom
 * suite with its own agent, run through the CLI in process. test/package.test.ts compiles
 * this file against the packed package and runs it.
 *
 * Run: npx tsx library.ts [out-dir]   (or compile it with tsc and run the .js with node)
 */
import {
  type Agent,
  createAgent,
  defineAgent,
  type Environment,
  getSuite,
  loadRun,
  NO_OPTIONS,
  registerSuite,
  runSuite,
  type Suite,
  z,
} from "longhaul";
import { main } from "longhaul/cli";

const outDir = process.argv[2] ?? "runs/library-example";

// 1. A custom agent: a factory with a zod options schema, run on a built-in suite.
const finisher = defineAgent({
  name: "finisher",
  description: "finishes at once: the floor any agent should beat",
  options: z.object({ note: z.string().default("giving up").describe("logged note") }).strict(),
  create: (options): Agent => ({
    id: "finisher",
    start: () => ({
      act: async () => ({ action: { kind: "finish" }, note: options.note }),
    }),
  }),
});

const transduction = await getSuite("transduction");
const { agent, config } = await createAgent(finisher, { note: "done" }, transduction);
const summary = await runSuite({
  suite: transduction,
  agent,
  agentConfig: config, // { name: "finisher", note: "done" }, recorded in run.json
  outDir: `${outDir}/finisher`,
  seed: "0",
  epochs: 1,
  concurrency: 2,
  subset: "smoke",
  limit: 2,
});
const { records } = loadRun(summary.outDir);
console.log(`finisher: ${summary.status}, ${records.map((r) => r.status).join(" ")}`);

// 2. A custom suite: say the number shown. Specs are plain JSON; make() builds one episode.
interface EchoPayload {
  n: number;
}

function echoEnvironment(n: number): Environment {
  let said: string | undefined;
  const observation = (step: number) => ({ step, events: [], view: { number: n } });
  return {
    describe: () => ({
      id: `echo-${n}`,
      suite: "echo",
      title: `Say ${n}`,
      instructions: "Say the number in the view, then the episode ends.",
      tools: [],
      modes: ["say"],
      rules: [],
      budgets: { maxSteps: 3 },
      access: { level: "observe", privileged: false, grants: [] },
    }),
    reset: () => observation(0),
    step(action) {
      if (action.kind !== "say") {
        return {
          observation: observation(1),
          reward: 0,
          terminated: false,
          truncated: false,
          info: { invalid: { code: "wrong-mode", reason: "only say is allowed" } },
        };
      }
      said = action.text.trim();
      return {
        observation: observation(1),
        reward: 0,
        terminated: true,
        truncated: false,
        info: {},
      };
    },
    outcome: () => ({ success: said === String(n), data: { said } }),
  };
}

const echoSuite: Suite<EchoPayload> = {
  id: "echo",
  version: "1.0.0",
  title: "Echo: say the number shown",
  dimensions: [],
  compile: () =>
    [1, 2, 3].map((n) => ({
      suite: "echo",
      id: `echo-${n}`,
      family: "echo",
      tags: {},
      seed: String(n),
      payload: { n },
    })),
  subsets: {},
  budgets: { maxSteps: 3 },
  make: (spec) => echoEnvironment(spec.payload.n),
  score: (_spec, outcome) => ({ success: outcome.success, metrics: {} }),
  aggregate: (records) => ({
    suite: "echo",
    title: "Echo",
    episodes: records.length,
    headlines: [
      {
        name: "solved",
        value: records.filter((r) => r.status === "success").length / records.length,
        format: "rate",
      },
    ],
    tables: [],
  }),
  agents: [
    defineAgent({
      name: "reader",
      description: "says the number it reads in the view",
      options: NO_OPTIONS,
      create: (): Agent => ({
        id: "reader",
        start: () => ({
          act: async (observation) => ({
            action: { kind: "say", text: String((observation.view as { number: number }).number) },
          }),
        }),
      }),
    }),
  ],
};

// Registered suites are loaded by id on first use, by the library and the CLI alike.
registerSuite({ id: "echo", title: echoSuite.title, load: async () => echoSuite });
const code = await main(["run", "echo", "--agent", "reader", "--out", `${outDir}/echo`, "--json"]);
console.log(`echo via the CLI: exit ${code}`);

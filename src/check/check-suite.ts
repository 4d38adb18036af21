/**
 * checkSuite: a conformance check for suite authors, modelled on Gymnasium's env_checker. It
 * compiles the suite twice, plays a spread sample of its tasks (a seeded random agent on the
 * raw environment, probes with invalid actions, and episode sessions) and reports every
 * problem with what to fix. Nothing here throws for a faulty suite: faults become problems.
 */
import { createAgent, createRandomAgent } from "../agents/index.ts";
import {
  type Action,
  AdaptiveLimiter,
  Budgets,
  type CompileOptions,
  canonicalJson,
  copyJson,
  DEFAULT_ACCESS,
  type Environment,
  EpisodeOutcome,
  formatZodError,
  GoalState,
  type Json,
  Observation,
  PRIVILEGED_ACCESS,
  Rng,
  StepResult,
  type Suite,
  suiteHash,
  TaskCard,
  TaskSpec,
  type Trace,
} from "../core/index.ts";
import { withoutWallClock } from "../log/index.ts";
import {
  describeError,
  type EpisodeResult,
  planFromSpecs,
  rescoreTrace,
  runEpisode,
} from "../run/index.ts";
import { jsonProblem, leakedValues, privilegedKeys } from "./leaks.ts";

/** What to check and how much to play. */
export interface CheckOptions {
  /** Options for suite.compile (e.g. robograph's familyFile). */
  compile?: CompileOptions;
  /** Tasks to play, spread evenly over the compiled ones; default 3. */
  limit?: number;
  /** Play these task ids instead of a spread sample. */
  taskIds?: string[];
  /** Root seed of the played episodes; default "check". */
  seed?: string;
  /** Decisions per played episode at most; default 40. */
  maxSteps?: number;
}

/** One check's verdict: each problem says where and what to fix. */
export interface CheckResult {
  id: string;
  title: string;
  ok: boolean;
  problems: string[];
  /** What was looked at, so a pass is not vacuous (e.g. "3 tasks, 57 observations"). */
  covered: string;
}

/** Everything checkSuite found. */
export interface SuiteCheckReport {
  suite: string;
  version: string;
  hash: string;
  tasks: number;
  played: string[];
  results: CheckResult[];
  ok: boolean;
}

/** The checks, in report order, with the one-line title each prints under. */
const CHECKS = {
  compile: "compile is deterministic and the content hash stable",
  specs: "compiled specs are valid TaskSpecs with unique ids",
  plan: "budgets, subsets, dimensions and streams fit the specs",
  cards: "task cards are schema-valid",
  observations: "observations, step results and outcomes are schema-valid",
  "invalid-actions": "malformed and invalid actions come back as feedback, never as exceptions",
  privileged: "non-privileged cards and observations carry no privileged data",
  latent: "latent() returns JSON data",
  "goal-state": "goalState() is a valid goal state that names nothing hidden() hides",
  rescore: "re-scoring a trace gives the same record",
  close: "close() is safe twice",
  determinism: "two seeded runs give identical traces",
} as const;
type CheckId = keyof typeof CHECKS;

/** Collects problems and coverage per check. */
class Findings {
  private readonly problems = new Map<CheckId, string[]>();
  private readonly coverage = new Map<CheckId, string>();

  fail(id: CheckId, problem: string): void {
    const list = this.problems.get(id) ?? [];
    // One suite bug tends to repeat on every task: keep the first few.
    if (list.length < 5) list.push(problem);
    this.problems.set(id, list);
  }

  cover(id: CheckId, what: string): void {
    this.coverage.set(id, what);
  }

  /** Run `body`; a throw becomes a problem of check `id`. */
  async guard(id: CheckId, where: string, body: () => unknown): Promise<void> {
    try {
      await body();
    } catch (e) {
      this.fail(id, `${where} threw ${describeError(e)}`);
    }
  }

  results(): CheckResult[] {
    return (Object.keys(CHECKS) as CheckId[]).map((id) => {
      const problems = this.problems.get(id) ?? [];
      return {
        id,
        title: CHECKS[id],
        ok: problems.length === 0,
        problems,
        covered: this.coverage.get(id) ?? "",
      };
    });
  }
}

/**
 * Check a suite against the protocol's rules (docs/protocol.md, "Rules every environment
 * follows"): see CHECKS for the list. Plays `limit` tasks; compiles the suite twice.
 */
export async function checkSuite<P>(
  suite: Suite<P>,
  options: CheckOptions = {},
): Promise<SuiteCheckReport> {
  const f = new Findings();
  const specs = suite.compile(options.compile);
  const again = suite.compile(options.compile);
  const hash = suiteHash(suite, specs);
  checkCompile(f, suite, specs, again, hash);
  const valid = checkSpecs(f, suite, specs);
  checkPlan(f, suite, valid);
  const sample = sampleTasks(valid, options);
  const seed = options.seed ?? "check";
  const maxSteps = options.maxSteps ?? 40;
  const counts = { observations: 0, probes: 0, hidden: 0, runs: 0, goalStates: 0 };
  for (const spec of sample) {
    await playRaw(f, suite, spec, seed, maxSteps, counts);
    await probe(f, suite, spec, counts);
    await playSessions(f, suite, spec, seed, maxSteps, counts);
  }
  const n = `${sample.length} tasks`;
  f.cover("cards", n);
  f.cover("observations", `${n}, ${counts.observations} observations`);
  f.cover("invalid-actions", `${counts.probes} probes`);
  f.cover(
    "privileged",
    suite.hidden
      ? `${counts.observations} observations against ${counts.hidden} hidden values (suite rule)`
      : `${counts.observations} observations (structural rule only: the suite defines no hidden())`,
  );
  f.cover("latent", n);
  f.cover(
    "goal-state",
    suite.goalState
      ? `${counts.goalStates} goal states (one per observation)${suite.hidden ? " against the hidden values" : ""}`
      : "the suite defines no goalState(): --memory oracle-state is refused",
  );
  f.cover("rescore", `${counts.runs} episodes`);
  f.cover("close", n);
  f.cover("determinism", `${sample.length} pairs of runs`);
  const results = f.results();
  return {
    suite: suite.id,
    version: suite.version,
    hash,
    tasks: specs.length,
    played: sample.map((s) => s.id),
    results,
    ok: results.every((r) => r.ok),
  };
}

function checkCompile<P>(
  f: Findings,
  suite: Suite<P>,
  specs: TaskSpec<P>[],
  again: TaskSpec<P>[],
  hash: string,
): void {
  // A suite that memoises compile() returns the same array again: say so rather than pass quietly.
  f.cover(
    "compile",
    again === specs
      ? `${specs.length} specs; compile() memoises, so only the hash is checked within one process`
      : `${specs.length} specs compiled twice`,
  );
  const diff = firstDifference(specs, again, "specs");
  if (diff) {
    f.fail(
      "compile",
      `compile() gave different specs on a second call (${diff}): compile must be a pure function of its options; draw randomness from Rng streams, never Math.random, the clock or iteration order of unordered data`,
    );
  }
  if (suiteHash(suite, again) !== hash) {
    f.fail("compile", "the content hash changed between two compiles (see the difference above)");
  }
}

/** Schema-valid specs of this suite (problems for the rest). */
function checkSpecs<P>(f: Findings, suite: Suite<P>, specs: TaskSpec<P>[]): TaskSpec<P>[] {
  f.cover("specs", `${specs.length} specs`);
  if (specs.length === 0) f.fail("specs", "compile() returned no specs");
  const ids = new Set<string>();
  const valid: TaskSpec<P>[] = [];
  specs.forEach((spec, i) => {
    const parsed = TaskSpec.safeParse(spec);
    if (!parsed.success) {
      f.fail("specs", `specs[${i}] is not a TaskSpec: ${formatZodError(parsed.error)}`);
      return;
    }
    if (spec.suite !== suite.id) {
      f.fail("specs", `specs[${i}] (${spec.id}) names suite "${spec.suite}", not "${suite.id}"`);
    }
    if (ids.has(spec.id)) f.fail("specs", `specs[${i}]: duplicate task id "${spec.id}"`);
    ids.add(spec.id);
    const json = jsonProblem(spec, "spec");
    if (json) f.fail("specs", `${spec.id}: ${json}; specs are stored and hashed as JSON`);
    valid.push(spec);
  });
  return valid;
}

function checkPlan<P>(f: Findings, suite: Suite<P>, specs: TaskSpec<P>[]): void {
  f.cover(
    "plan",
    `${Object.keys(suite.subsets).length} subsets, ${suite.dimensions.length} dimensions`,
  );
  const budgets = Budgets.safeParse(suite.budgets);
  if (!budgets.success) {
    f.fail("plan", `suite.budgets is not valid Budgets: ${formatZodError(budgets.error)}`);
  }
  const tags = new Set(specs.flatMap((s) => Object.keys(s.tags)));
  for (const dimension of suite.dimensions) {
    if (!tags.has(dimension)) {
      f.fail(
        "plan",
        `dimension "${dimension}" is no tag of any spec: reports would group by nothing`,
      );
    }
  }
  for (const [name, keep] of Object.entries(suite.subsets)) {
    // An empty subset is fine (a user family may have no indoor scene); a throwing one is not.
    try {
      for (const spec of specs) keep(spec);
    } catch (e) {
      f.fail(
        "plan",
        `subset "${name}" threw ${describeError(e)}: subset predicates must accept every spec`,
      );
    }
  }
  try {
    planFromSpecs(suite, specs, { epochs: 1 });
  } catch (e) {
    f.fail("plan", `planning every task failed: ${describeError(e)}`);
  }
}

/** `limit` specs spread evenly over the list (first and last included), or the named ones. */
function sampleTasks<P>(specs: TaskSpec<P>[], options: CheckOptions): TaskSpec<P>[] {
  if (options.taskIds) {
    const wanted = new Set(options.taskIds);
    return specs.filter((s) => wanted.has(s.id));
  }
  const k = Math.min(options.limit ?? 3, specs.length);
  if (k <= 1) return specs.slice(0, k);
  return Array.from(
    { length: k },
    (_, i) => specs[Math.round((i * (specs.length - 1)) / (k - 1))]!,
  );
}

/** Schema problem of a value, as "what: path: message", or undefined. */
function schemaProblem(
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  value: unknown,
  what: string,
): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return `${what} is not valid: ${formatZodError(parsed.error as Parameters<typeof formatZodError>[0])}`;
}

/** Make an environment; a throw becomes a problem of `id`. */
async function make<P>(
  f: Findings,
  id: CheckId,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  privileged = false,
): Promise<Environment | undefined> {
  try {
    return await suite.make(spec, {
      access: privileged ? PRIVILEGED_ACCESS : DEFAULT_ACCESS,
      budgets: suite.budgets,
    });
  } catch (e) {
    f.fail(id, `make(${spec.id}) threw ${describeError(e)}`);
    return undefined;
  }
}

/**
 * A seeded random agent on the raw, non-privileged environment: every card, observation, step
 * result and outcome is schema-checked and searched for privileged data (read through latent(),
 * which the environment is asked for next to each observation).
 */
async function playRaw<P>(
  f: Findings,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  seed: string,
  maxSteps: number,
  counts: { observations: number; hidden: number; goalStates: number },
): Promise<void> {
  const env = await make(f, "observations", suite, spec);
  if (!env) return;
  await f.guard("observations", `playing ${spec.id}`, async () => {
    const card = env.describe();
    const cardProblem = schemaProblem(TaskCard, card, `the task card of ${spec.id}`);
    if (cardProblem) f.fail("cards", `${cardProblem}; fix describe()`);
    else if (card.id !== spec.id || card.suite !== suite.id) {
      f.fail("cards", `the card of ${spec.id} says id "${card.id}", suite "${card.suite}"`);
    }
    const inspect = (value: unknown, where: string) => {
      counts.observations++;
      for (const key of privilegedKeys(value)) {
        f.fail(
          "privileged",
          `${where} has a field "${key}": privileged data goes through latent() only`,
        );
      }
      const latent = readLatent(f, env, where);
      if (latent === undefined) return;
      if (
        canonicalJson(value).includes(canonicalJson(latent)) &&
        canonicalJson(latent).length > 2
      ) {
        f.fail("privileged", `${where} embeds the whole latent state`);
      }
      const hidden = suite.hidden?.(latent, spec).filter((h) => h.length > 0) ?? [];
      counts.hidden += hidden.length;
      for (const leak of leakedValues(value, hidden)) {
        f.fail(
          "privileged",
          `${where} shows ${JSON.stringify(excerpt(leak))}, which suite.hidden() says is hidden now`,
        );
      }
      if (suite.goalState) checkGoalState(f, suite, spec, latent, hidden, where, counts);
    };
    // The card's access profile is the protocol's own record of the grant, not privileged data.
    const { access: _access, ...told } = card;
    inspect(told, `the non-privileged card of ${spec.id}`);
    let observation = await env.reset();
    const first = schemaProblem(Observation, observation, `the first observation of ${spec.id}`);
    if (first) f.fail("observations", `${first}; fix reset()`);
    inspect(observation, `the first observation of ${spec.id}`);
    const agent = await createRandomAgent().start(card, {
      episodeId: spec.id,
      epoch: 0,
      rng: new Rng(seed, `check:${spec.id}`),
      signal: new AbortController().signal,
      budgets: card.budgets,
      access: DEFAULT_ACCESS,
      gate: new AdaptiveLimiter(1),
    });
    for (let t = 0; t < maxSteps; t++) {
      const action = (await agent.act(observation)).action as Action;
      const result = await env.step(action);
      const where = `step ${t + 1} of ${spec.id} (${action.kind})`;
      const problem = schemaProblem(StepResult, result, `the result of ${where}`);
      if (problem) {
        f.fail("observations", `${problem}; fix step()`);
        break;
      }
      observation = result.observation;
      inspect(observation, `the observation after ${where}`);
      if (result.terminated || result.truncated) break;
    }
    const outcome = schemaProblem(EpisodeOutcome, await env.outcome(), `the outcome of ${spec.id}`);
    if (outcome) f.fail("observations", `${outcome}; fix outcome()`);
  });
  await closeTwice(f, env, spec.id);
}

/**
 * The goal state an agent granted `goal-state` would read next to this observation: schema-valid,
 * and revealing no value suite.hidden() hides (only goals the agent has been told).
 */
function checkGoalState<P>(
  f: Findings,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  latent: Json,
  hidden: string[],
  where: string,
  counts: { goalStates: number },
): void {
  const read = (suite.goalState as NonNullable<Suite<P>["goalState"]>)(copyJson(latent), spec);
  counts.goalStates++;
  const problem = schemaProblem(GoalState, read, `the goal state at ${where}`);
  if (problem) {
    f.fail("goal-state", `${problem}; fix goalState()`);
    return;
  }
  for (const leak of leakedValues(read, hidden)) {
    f.fail(
      "goal-state",
      `the goal state at ${where} shows ${JSON.stringify(excerpt(leak))}, which suite.hidden() says is hidden now: reveal only goals the agent has been told`,
    );
  }
}

/** A value cut to 60 characters for a problem line. */
function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** latent() as JSON, or undefined (a problem when it is not JSON data). */
function readLatent(f: Findings, env: Environment, where: string): Json | undefined {
  if (!env.latent) return undefined;
  const latent = env.latent();
  const problem = jsonProblem(latent, "latent()");
  if (problem) {
    f.fail(
      "latent",
      `${problem} (at ${where}): latent() must return plain JSON data, a snapshot, never live objects`,
    );
    return undefined;
  }
  return latent;
}

async function closeTwice(f: Findings, env: Environment, taskId: string): Promise<void> {
  await f.guard("close", `close() of ${taskId}`, () => env.close?.());
  await f.guard("close", `close() called a second time on ${taskId}`, () => env.close?.());
}

/** Actions every environment must answer with feedback: each on a freshly reset episode. */
function probesFor(card: TaskCard): { name: string; action: Action; invalid: boolean }[] {
  const probes: { name: string; action: Action; invalid: boolean }[] = [
    {
      name: "a call of an unknown tool",
      action: { kind: "tool", calls: [{ tool: "no_such_tool__", args: {} }] },
      invalid: true,
    },
  ];
  const tool = card.tools[0];
  if (tool && card.modes.includes("tool")) {
    probes.push({
      name: `a call of ${tool.name} with arguments it does not take`,
      action: {
        kind: "tool",
        calls: [{ tool: tool.name, args: { __not_an_argument__: [1, {}] } }],
      },
      invalid: false,
    });
  }
  const others: Action[] = [
    { kind: "say", text: "\u0000 ünïcødé and an unclosed {" },
    { kind: "wait" },
    { kind: "finish", answer: "" },
  ];
  for (const action of others) {
    if (!card.modes.includes(action.kind)) {
      probes.push({ name: `a ${action.kind} action (not among its modes)`, action, invalid: true });
    }
  }
  if (!card.modes.includes("tool")) {
    probes.push({
      name: "a tool call (not among its modes)",
      action: { kind: "tool", calls: [{ tool: "x", args: {} }] },
      invalid: true,
    });
  }
  return probes;
}

/**
 * Invalid actions on a fresh episode each: step() must not throw, must return a valid result,
 * and must tell the agent (info.invalid, or at least an event). Out-of-mode actions and unknown
 * tools must be typed as invalid.
 */
async function probe<P>(
  f: Findings,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  counts: { probes: number },
): Promise<void> {
  const env = await make(f, "invalid-actions", suite, spec);
  if (!env) return;
  await f.guard("invalid-actions", `probing ${spec.id}`, async () => {
    const card = env.describe();
    for (const { name, action, invalid } of probesFor(card)) {
      counts.probes++;
      await env.reset();
      let result: StepResult;
      try {
        result = await env.step(action);
      } catch (e) {
        f.fail(
          "invalid-actions",
          `step() threw on ${name} (${spec.id}): ${describeError(e)}; answer with info.invalid ({code, reason}) instead`,
        );
        continue;
      }
      const problem = schemaProblem(StepResult, result, `the result of ${name} (${spec.id})`);
      if (problem) f.fail("invalid-actions", problem);
      else if (invalid && !result.info.invalid) {
        f.fail(
          "invalid-actions",
          `${name} (${spec.id}) came back without info.invalid; type it (unknown-tool, wrong-mode, ...) so it is counted`,
        );
      } else if (!result.info.invalid && result.observation.events.length === 0) {
        f.fail(
          "invalid-actions",
          `${name} (${spec.id}) came back without info.invalid and without any event: the agent is not told what happened`,
        );
      }
    }
  });
  await closeTwice(f, env, spec.id);
}

/**
 * The task through episode sessions: a seeded random agent twice (identical traces), each
 * trace re-scored (identical record); with the suite's `oracle` agent too, if it has one.
 */
async function playSessions<P>(
  f: Findings,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  seed: string,
  maxSteps: number,
  counts: { runs: number },
): Promise<void> {
  const play = async (agentName: "random" | "oracle"): Promise<EpisodeResult | undefined> => {
    const oracle = suite.agents?.find((f) => f.name === "oracle");
    const agent =
      agentName === "random"
        ? createRandomAgent()
        : oracle && (await createAgent(oracle, {}, suite)).agent;
    if (!agent) return undefined;
    counts.runs++;
    const result = await runEpisode({
      suite,
      agent,
      planned: { episodeId: `${spec.id}@0`, spec, epoch: 0 },
      seed,
      access: agent.privileged ? PRIVILEGED_ACCESS : DEFAULT_ACCESS,
      budgets: { maxSteps },
      gate: new AdaptiveLimiter(1),
      signal: new AbortController().signal,
      maxConsecutiveFormatErrors: 3,
    });
    if (result.kind === "done") await checkRescore(f, suite, spec, agentName, result.trace);
    return result;
  };
  await f.guard("determinism", `playing ${spec.id} through a session`, async () => {
    const [a, b] = [await play("random"), await play("random")];
    if (a?.kind !== "done" || b?.kind !== "done") return;
    if (a.record.status === "invalid") {
      f.fail(
        "determinism",
        `the random agent's episode of ${spec.id} was invalid: ${a.record.error}`,
      );
    }
    const diff = firstDifference(withoutWallClock(a.trace), withoutWallClock(b.trace), "trace");
    if (diff) {
      f.fail(
        "determinism",
        `two runs of ${spec.id} with seed "${seed}" differ (${diff}): draw randomness from the spec's seed or ctx.rng, never Math.random or the clock`,
      );
    }
    await play("oracle");
  });
}

async function checkRescore<P>(
  f: Findings,
  suite: Suite<P>,
  spec: TaskSpec<P>,
  agent: string,
  trace: Trace | undefined,
): Promise<void> {
  if (!trace) return;
  await f.guard("rescore", `re-scoring the ${agent} trace of ${spec.id}`, async () => {
    const again = await rescoreTrace(suite, spec, JSON.parse(JSON.stringify(trace)) as Trace);
    if (!again) return;
    const diff = firstDifference(trace.record, again.record, "record");
    if (diff) {
      f.fail(
        "rescore",
        `re-scoring the ${agent} trace of ${spec.id} changed the record (${diff}): score() must depend only on (spec, outcome, trace), and the outcome must be JSON`,
      );
    }
  });
}

/** The first path where two JSON values differ, with both sides, or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (canonicalJson(a) === canonicalJson(b)) return undefined;
  if (
    a &&
    b &&
    typeof a === "object" &&
    typeof b === "object" &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const sub = Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`;
      const d = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        sub,
      );
      if (d) return d;
    }
  }
  const show = (v: unknown) => (canonicalJson(v) ?? "undefined").slice(0, 80);
  return `${path}: ${show(a)} vs ${show(b)}`;
}

/** Option parsers and shared option groups for the commands. */
import { type Command, InvalidArgumentError, Option } from "commander";
// The errors file, not the core index: declaring options must not load the wire schemas.
import { LonghaulError } from "../core/errors.ts";
import type { Budgets } from "../core/protocol.ts";
import { REDACTED, redactUrls, urlSecrets } from "../core/redact.ts";
import type { FullReport } from "../report/index.ts";

/** Accumulate a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A positive integer option. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

/** `--format openai|authors|both` of the training-row commands. */
export function rowFormats(value: string): ("openai" | "authors")[] {
  if (value === "both") return ["openai", "authors"];
  if (value === "openai" || value === "authors") return [value];
  throw new LonghaulError("USAGE", `--format must be openai, authors or both, got "${value}"`);
}

/** A number option >= 0. */
export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a number >= 0");
  return n;
}

/** One `k=v` pair; a pair without "=" is a usage error naming `flag`. */
function parsePair(text: string, flag: string): [string, string] {
  const at = text.indexOf("=");
  if (at <= 0) throw new LonghaulError("USAGE", `${flag} expects k=v, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** `k=v` pairs as a record (a later pair wins). */
export function parseFilters(filters: string[], flag: string): Record<string, string> {
  return Object.fromEntries(filters.map((f) => parsePair(f, flag)));
}

/**
 * Flags that set one agent option each, kept for the built-in agents' common options; any
 * option of any agent can also be given as `--agent-opt key=value`. Values are typed by the
 * chosen agent's schema, which also validates them.
 */
const AGENT_OPTION_FLAGS: { flag: string; key: string; description: string; hidden?: true }[] = [
  {
    flag: "--model <provider:name>",
    key: "model",
    description: "llm: model, e.g. openai:gpt-4o-mini (implies --agent llm)",
  },
  {
    flag: "--base-url <url>",
    key: "baseUrl",
    description: "llm: endpoint (vLLM, Ollama, llama.cpp, OpenRouter)",
  },
  {
    flag: "--api-key <key>",
    key: "apiKey",
    description: "llm: API key (default: the provider's key variable); never logged",
  },
  { flag: "--temperature <t>", key: "temperature", description: "llm: sampling temperature" },
  {
    flag: "--max-output-tokens <n>",
    key: "maxTokens",
    description: "llm: max tokens per model reply",
  },
  {
    flag: "--reasoning-effort <e>",
    key: "reasoningEffort",
    description: "llm: minimal, low, medium or high",
  },
  { flag: "--model-seed <n>", key: "seed", description: "llm: provider sampling seed" },
  {
    flag: "--max-retries <n>",
    key: "maxRetries",
    description: "llm: retries per model call (0 = none)",
  },
  {
    flag: "--timeout-ms <ms>",
    key: "timeoutMs",
    description: "llm: timeout per model call attempt (default 120000)",
  },
  {
    flag: "--decision-timeout-ms <ms>",
    key: "decisionTimeoutMs",
    description: "llm: cap on one decision's call with its retries and waits (default 300000)",
  },
  {
    flag: "--response-cache <dir>",
    key: "cacheDir",
    description: "llm: cache model responses on disk",
  },
  // The former name of --response-cache, kept working.
  {
    flag: "--cache <dir>",
    key: "cacheDir",
    description: "llm: same as --response-cache",
    hidden: true,
  },
  {
    flag: "--prices <file>",
    key: "prices",
    description: "llm: price table (YAML or JSON) for cost accounting",
  },
  {
    flag: "--output <mode>",
    key: "output",
    description: "llm: reply format: auto, tools (native tool calls) or json",
  },
  {
    flag: "--memory <strategy>",
    key: "memory",
    description:
      "llm: state tracking: full (default), last-k:K, reflection, explicit, oracle-state (privileged)",
  },
  {
    flag: "--memory-model <provider:name>",
    key: "memoryModel",
    description: "llm: the state manager's model for reflection and explicit (default: --model)",
  },
  {
    flag: "--trace <path>",
    key: "trace",
    description: "replay: trace file or run dir (implies --agent replay)",
  },
];

/** Declare --agent, --agent-opt and the agent option flags on `cmd`. */
export function agentOptions(cmd: Command): Command {
  cmd
    .option("--agent <name>", "agent (see `longhaul agents --suite <suite>`; default random)")
    .option(
      "--agent-opt <key=value>",
      "any option of the agent, typed by its schema, e.g. robots=r1,r2 (repeatable)",
      collect,
      [],
    );
  for (const f of AGENT_OPTION_FLAGS) {
    const option = new Option(f.flag, f.description);
    cmd.addOption(f.hidden ? option.hideHelp() : option);
  }
  return cmd;
}

/**
 * The agent options given on the command line, as text by option key (the agent's schema
 * types them); an option given twice is a USAGE error.
 */
export function agentOptionText(
  flags: Record<string, unknown> & { agentOpt: string[] },
): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, value: string, source: string) => {
    if (key in out)
      throw new LonghaulError("USAGE", `agent option "${key}" is given twice (${source})`);
    out[key] = value;
  };
  for (const f of AGENT_OPTION_FLAGS) {
    const name = new Option(f.flag).attributeName();
    const value = flags[name];
    if (typeof value === "string") put(f.key, value, f.flag.split(" ")[0]!);
  }
  for (const pair of flags.agentOpt) put(...parsePair(pair, "--agent-opt"), "--agent-opt");
  return out;
}

/** The budget flags, as commander stores them. */
export interface BudgetFlags {
  maxSteps?: number;
  maxSimTime?: number;
  maxWallMs?: number;
  maxTokens?: number;
  maxCost?: number;
}

/** Declare the per-episode budget flags on `cmd`. */
export function budgetOptions(cmd: Command): Command {
  return cmd
    .option("--max-steps <n>", "decision budget per episode", positiveInt)
    .option("--max-sim-time <s>", "simulated-time budget per episode (seconds)", nonNegativeNumber)
    .option("--max-wall-ms <ms>", "wall-time budget per episode", positiveInt)
    .option("--max-tokens <n>", "token budget per episode", positiveInt)
    .option("--max-cost <usd>", "cost budget per episode", nonNegativeNumber);
}

/** The budgets the flags set (unset flags leave the suite's). */
export function budgetsOf(flags: BudgetFlags): Budgets {
  const budgets: Budgets = {};
  if (flags.maxSteps) budgets.maxSteps = flags.maxSteps;
  if (flags.maxSimTime) budgets.maxSimTime = flags.maxSimTime;
  if (flags.maxWallMs) budgets.maxWallMs = flags.maxWallMs;
  if (flags.maxTokens) budgets.maxTokens = flags.maxTokens;
  if (flags.maxCost) budgets.maxCostUsd = flags.maxCost;
  return budgets;
}

/** Option keys taken as secret before an agent's schema says which are (api keys, tokens, ...). */
const SECRET_KEY = /(api[-_]?key|apikey|token|secret|password|passwd)$/i;

/**
 * The command line as logs may keep it, and the secret values it held: the values of secret
 * agent options (`--api-key VALUE`, `--api-key=VALUE`, `--agent-opt apiKey=VALUE`; an option
 * is secret when `secretKeys` names it or its key looks like one) and credentials inside URLs.
 */
export function redactArgv(
  argv: readonly string[],
  secretKeys: ReadonlySet<string> = new Set(),
): { argv: string[]; secrets: string[] } {
  const isSecret = (key: string) => secretKeys.has(key) || SECRET_KEY.test(key);
  const secretFlags = new Set(
    AGENT_OPTION_FLAGS.filter((f) => isSecret(f.key)).map((f) => f.flag.split(" ")[0]!),
  );
  const secrets: string[] = [];
  const out: string[] = [];
  /** An agent option pair with its value hidden when the key is secret. */
  const pair = (text: string) => {
    const at = text.indexOf("=");
    if (at <= 0 || !isSecret(text.slice(0, at))) return text;
    secrets.push(text.slice(at + 1));
    return `${text.slice(0, at)}=${REDACTED}`;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 && flag !== arg ? arg.slice(eq + 1) : undefined;
    if (secretFlags.has(flag)) {
      const value = inline ?? argv[++i];
      if (value !== undefined) secrets.push(value);
      out.push(inline !== undefined ? `${flag}=${REDACTED}` : flag);
      if (inline === undefined && value !== undefined) out.push(REDACTED);
    } else if (flag === "--agent-opt" && inline !== undefined) {
      out.push(`${flag}=${pair(inline)}`);
    } else if (flag === "--agent-opt" && i + 1 < argv.length) {
      out.push(flag, pair(argv[++i]!));
    } else {
      out.push(arg);
    }
  }
  for (const arg of argv) secrets.push(...urlSecrets(arg));
  return { argv: out.map(redactUrls), secrets };
}

/** Values of environment variables that hold credentials (`*_API_KEY`, `*_TOKEN`, ...). */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name]) => /(_API_KEY|_KEY|_TOKEN|_SECRET|_PASSWORD)$/i.test(name))
    .flatMap(([, value]) => (value ? [value] : []));
}

/** The run's score for --fail-under: success rate over valid episodes. */
export function scoreOf(report: FullReport): number {
  const rate = report.generic.headlines.find((h) => h.name === "success rate");
  return rate?.value ?? 0;
}

/** Option parsers and shared option groups for the commands. */
import { type Command, InvalidArgumentError, Option } from "commander";
import { LonghaulError } from "../core/index.ts";
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

/** A non-negative integer option (e.g. retries, where 0 means none). */
export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected an integer >= 0");
  return n;
}

/** A number option >= 0. */
export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("expected a number >= 0");
  return n;
}

/** `k=v` pairs as a record; a pair without "=" is a usage error naming `flag`. */
export function parseFilters(filters: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filters) {
    const at = f.indexOf("=");
    if (at <= 0) throw new LonghaulError("USAGE", `${flag} expects k=v, got "${f}"`);
    out[f.slice(0, at)] = f.slice(at + 1);
  }
  return out;
}

/** The llm agent's flags. */
export function llmOptions(cmd: Command): Command {
  return cmd
    .option("--base-url <url>", "OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, OpenRouter)")
    .option(
      "--api-key <key>",
      "API key (default: OPENAI_API_KEY / ANTHROPIC_API_KEY); never logged",
    )
    .option("--temperature <t>", "sampling temperature", nonNegativeNumber)
    .option("--max-output-tokens <n>", "max tokens per model reply", positiveInt)
    .addOption(
      new Option("--reasoning-effort <e>", "reasoning effort").choices([
        "minimal",
        "low",
        "medium",
        "high",
      ]),
    )
    .option("--model-seed <n>", "provider sampling seed", nonNegativeInt)
    .option("--max-retries <n>", "retries per model call (0 = none)", nonNegativeInt)
    .option("--timeout-ms <ms>", "timeout per model call attempt", positiveInt)
    .option("--cache <dir>", "cache model responses on disk")
    .option("--prices <file>", "price table (YAML or JSON) for cost accounting")
    .addOption(
      new Option("--output <mode>", "reply format: native tool calls or JSON fallback").choices([
        "auto",
        "tools",
        "json",
      ]),
    );
}

/** The run's score for --fail-under: success rate over valid episodes. */
export function scoreOf(report: FullReport): number {
  const rate = report.generic.headlines.find((h) => h.name === "success rate");
  return rate?.value ?? 0;
}

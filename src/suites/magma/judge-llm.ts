/**
 * The pinned LLM judge (`--compile judge=provider:model`, §4.1: the authors use a fixed
 * gpt-oss-20b): one provider-layer call per open answer with the question, the episode's
 * semantic rule and the answer, greedy, asking for {"verdict": bool, "reason": string};
 * a malformed verdict is asked again (at most six attempts, then rejected, as the authors'
 * runner does). Its calls are priced through the price table and counted in the outcome.
 */

import { callModel, type ModelClient } from "../../agents/llm/model-client.ts";
import { loadAdapter, loadProviders, resolveModel } from "../../agents/llm/providers/index.ts";
import { AdaptiveLimiter, LonghaulError, Rng } from "../../core/index.ts";
import type { Judge, JudgeInput, JudgeVerdict } from "./judge.ts";
import type { JudgeSpec } from "./types.ts";

const ATTEMPTS = 6;

/** The judge's instructions (the authors' judge asks the same of gpt-oss-20b). */
export const JUDGE_PROMPT = [
  "You check whether an answer satisfies a required semantic rule.",
  "You are given the user's question, the rule, and the answer.",
  "Judge meaning, not wording: paraphrases, reordering and short answers are fine when the meaning is clear.",
  "The answer is invalid when information the rule requires is missing or wrong, when it is vague, when it only partly satisfies the rule, when it claims an action was taken although only information was asked, or when it replaces the answer with a question.",
  'Reply with one JSON object only: {"verdict": true or false, "reason": "one sentence"}.',
].join("\n");

/** The judge a spec pins. */
export function llmJudge(spec: JudgeSpec): Judge {
  let client: Promise<ModelClient> | undefined;
  const gate = new AdaptiveLimiter(4);
  const rng = new Rng("magma-judge");
  return {
    async judge(input: JudgeInput): Promise<JudgeVerdict> {
      client ??= makeClient(spec);
      const c = await client;
      const request = c.adapter.buildRequest(
        {
          system: JUDGE_PROMPT,
          turns: [
            {
              role: "user",
              toolResults: [],
              texts: [
                `Question: ${input.question}\nRule: The answer must state: ${input.rule}\nAnswer: ${input.answer}`,
              ],
            },
          ],
          tools: [],
        },
        { model: c.model, temperature: 0, maxTokens: 300 },
      );
      let costUsd = 0;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const { reply, call } = await callModel(c, request, {
          gate,
          signal: new AbortController().signal,
          rng,
          epoch: attempt - 1,
        });
        costUsd += call.usage.costUsd;
        const parsed = parseVerdict(reply.text);
        if (parsed) return { ...parsed, calls: attempt, costUsd };
      }
      return {
        verdict: false,
        reason: `no valid verdict after ${ATTEMPTS} attempts`,
        calls: ATTEMPTS,
        costUsd,
      };
    },
  };
}

/** {"verdict": bool, "reason": ...} from a reply, code fences allowed; null when malformed. */
export function parseVerdict(text: string): { verdict: boolean; reason: string } | null {
  const body = text
    .replace(/^\s*```(?:json)?/i, "")
    .replace(/```\s*$/, "")
    .trim();
  try {
    const value = JSON.parse(body) as {
      verdict?: unknown;
      reason?: unknown;
      explanation?: unknown;
    };
    if (typeof value.verdict !== "boolean") return null;
    const reason = value.reason ?? value.explanation ?? "";
    return { verdict: value.verdict, reason: String(reason) };
  } catch {
    return null;
  }
}

async function makeClient(spec: JudgeSpec): Promise<ModelClient> {
  const { provider, name } = resolveModel(spec.model, loadProviders());
  const baseUrl = spec.baseUrl ?? provider.baseUrl;
  const apiKey =
    (provider.apiKeyEnv ? process.env[provider.apiKeyEnv] : undefined) ??
    (spec.baseUrl !== undefined || provider.apiKeyEnv === undefined ? "not-needed" : undefined);
  if (!apiKey)
    throw new LonghaulError(
      "USAGE",
      `no API key for the judge's provider ${provider.name}: set ${provider.apiKeyEnv}`,
    );
  const client: ModelClient = {
    adapter: await loadAdapter(provider, { apiKey, baseUrl, timeoutMs: 120_000 }),
    provider: spec.model,
    model: name,
    baseUrl,
    maxRetries: 4,
    retryBaseMs: 500,
    // One verdict with its retries: the llm agent's default decision cap.
    decisionTimeoutMs: 300_000,
  };
  if (spec.price) client.price = spec.price;
  return client;
}

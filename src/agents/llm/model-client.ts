/**
 * One model call: cache lookup, then attempts through the call gate with the single retry
 * layer, then usage, cost and the ModelCall record for the log.
 */
import {
  type CallGate,
  LonghaulError,
  type ModelCall,
  type Rng,
  type Usage,
} from "../../core/index.ts";
import { costOf, type ModelPrice, type TokenCounts } from "./prices.ts";
import type { ModelReply, ProviderAdapter } from "./providers/index.ts";
import type { ResponseCache } from "./response-cache.ts";
import { backoffMs, type ProviderFailure, sleep } from "./retry.ts";

/** Everything a session's calls share. */
export interface ModelClient {
  adapter: ProviderAdapter;
  /** "openai:gpt-4o": the gate key and the ModelCall's provider. */
  provider: string;
  model: string;
  baseUrl: string;
  maxRetries: number;
  retryBaseMs: number;
  cache?: ResponseCache;
  price?: ModelPrice;
}

/** The per-episode context a call runs under. */
export interface CallContext {
  gate: CallGate;
  signal: AbortSignal;
  /** Jitter stream for backoff. */
  rng: Rng;
  epoch: number;
}

/** A reply and its log record. */
export interface CallResult {
  reply: ModelReply;
  call: ModelCall;
}

/** Send `request`, from the cache when possible; throws PROVIDER or ABORTED errors. */
export async function callModel(
  client: ModelClient,
  request: Record<string, unknown>,
  ctx: CallContext,
): Promise<CallResult> {
  const key = client.cache?.key({
    provider: client.provider,
    baseUrl: client.baseUrl,
    request,
    epoch: ctx.epoch,
  });
  if (client.cache && key) {
    const stored = await client.cache.get(key);
    if (stored !== undefined) {
      const reply = client.adapter.parseReply(stored);
      return { reply, call: record(client, request, stored, reply.tokens, 0, 1, true) };
    }
  }

  let lastFailure: ProviderFailure | undefined;
  for (let attempt = 1; attempt <= client.maxRetries + 1; attempt++) {
    const release = await acquire(ctx, client.provider);
    // The SDKs never remove the abort listener they add to the signal they are given, so
    // each attempt gets its own signal, linked to the episode's only while it runs.
    const attemptAbort = new AbortController();
    const forward = () => attemptAbort.abort(ctx.signal.reason);
    ctx.signal.addEventListener("abort", forward, { once: true });
    const started = performance.now();
    let response: unknown;
    let failure: ProviderFailure | undefined;
    try {
      response = await client.adapter.send(request, attemptAbort.signal);
    } catch (error) {
      failure = client.adapter.classify(error, ctx.signal);
    } finally {
      ctx.signal.removeEventListener("abort", forward);
      release();
    }
    if (!failure) {
      const latencyMs = performance.now() - started;
      ctx.gate.succeeded(client.provider);
      const reply = client.adapter.parseReply(response);
      if (client.cache && key) await client.cache.put(key, response);
      return {
        reply,
        call: record(client, request, response, reply.tokens, latencyMs, attempt, false),
      };
    }
    lastFailure = failure;
    if (failure.kind === "abort") throw aborted(client.provider);
    if (failure.kind === "rate-limit") ctx.gate.rateLimited(client.provider);
    if (failure.kind === "fatal" || attempt > client.maxRetries) break;
    try {
      await sleep(backoffMs(failure, attempt - 1, client.retryBaseMs, ctx.rng), ctx.signal);
    } catch {
      throw aborted(client.provider);
    }
  }
  const attempts = lastFailure?.kind === "fatal" ? "not retried" : "retries exhausted";
  throw new LonghaulError(
    "PROVIDER",
    `${client.provider}: ${lastFailure?.message ?? "no attempt made"} (${attempts})`,
  );
}

async function acquire(ctx: CallContext, key: string): Promise<() => void> {
  try {
    return await ctx.gate.acquire(key, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) throw aborted(key);
    throw error;
  }
}

function aborted(provider: string): LonghaulError {
  return new LonghaulError("ABORTED", `${provider}: the call was aborted`);
}

function record(
  client: ModelClient,
  request: Record<string, unknown>,
  response: unknown,
  tokens: TokenCounts,
  latencyMs: number,
  attempts: number,
  cached: boolean,
): ModelCall {
  const usage: Usage = {
    calls: 1,
    inputTokens: tokens.input,
    cachedInputTokens: tokens.cachedInput,
    outputTokens: tokens.output,
    reasoningTokens: tokens.reasoning,
    // A cached call keeps the cost it had when fetched, so budgets end a replay at the same step.
    costUsd: client.price ? costOf(tokens, client.price) : 0,
    latencyMs,
    cachedCalls: cached ? 1 : 0,
    retries: attempts - 1,
  };
  return {
    provider: client.provider,
    model: client.model,
    request,
    response,
    usage,
    cached,
    attempts,
  };
}

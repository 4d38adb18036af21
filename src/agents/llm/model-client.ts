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
  /** Cap on one call with all its attempts, waits and backoff (one decision's model time). */
  decisionTimeoutMs: number;
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

  // The decision cap: one signal for this call, aborted by the episode or by the cap.
  const call = new AbortController();
  const forwardEpisode = () => call.abort(ctx.signal.reason);
  if (ctx.signal.aborted) forwardEpisode();
  ctx.signal.addEventListener("abort", forwardEpisode, { once: true });
  let capped = false;
  const cap = setTimeout(() => {
    capped = true;
    call.abort(new Error("decision timeout"));
  }, client.decisionTimeoutMs);
  try {
    return await attempts(client, request, ctx, call.signal, key, () => capped);
  } finally {
    clearTimeout(cap);
    ctx.signal.removeEventListener("abort", forwardEpisode);
  }
}

/** HTTP statuses that say the run's setup is wrong (key, permissions, model or endpoint). */
const SETUP_STATUSES: Record<number, string> = {
  401: "the provider refused the API key",
  403: "the API key may not use this model or endpoint",
  404: "no such model or endpoint",
};

/** The attempts of one call under `signal`; `capped()` says the decision cap aborted it. */
async function attempts(
  client: ModelClient,
  request: Record<string, unknown>,
  episode: CallContext,
  signal: AbortSignal,
  key: string | undefined,
  capped: () => boolean,
): Promise<CallResult> {
  const ctx = { ...episode, signal };
  let lastFailure: ProviderFailure | undefined;
  let made = 0;
  const overCap = () =>
    new LonghaulError(
      "PROVIDER",
      `${client.provider}: no reply within the decision timeout of ${seconds(client.decisionTimeoutMs)}` +
        ` (${made} attempt${made === 1 ? "" : "s"}${lastFailure ? `; last: ${lastFailure.message}` : ""})`,
    );
  for (let attempt = 1; attempt <= client.maxRetries + 1; attempt++) {
    let release: () => void;
    try {
      release = await acquire(ctx, client.provider);
    } catch (error) {
      if (capped()) throw overCap();
      throw error;
    }
    made = attempt;
    // The SDKs never remove the abort listener they add to the signal they are given, so
    // each attempt gets its own signal, linked to the call's only while it runs.
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
    if (failure.kind === "abort") {
      if (capped()) throw overCap();
      throw aborted(client.provider);
    }
    lastFailure = failure;
    if (failure.kind === "rate-limit") ctx.gate.rateLimited(client.provider);
    const setup = failure.status !== undefined ? SETUP_STATUSES[failure.status] : undefined;
    if (failure.kind === "fatal" && setup) {
      // Wrong for every episode alike: a USAGE error stops the run instead of failing each one.
      throw new LonghaulError(
        "USAGE",
        `${client.provider} at ${hostOf(client.baseUrl)}: ${setup} (${failure.message})`,
      );
    }
    if (failure.kind === "fatal" || attempt > client.maxRetries) break;
    try {
      await sleep(backoffMs(failure, attempt - 1, client.retryBaseMs, ctx.rng), ctx.signal);
    } catch {
      if (capped()) throw overCap();
      throw aborted(client.provider);
    }
  }
  const how = lastFailure?.kind === "fatal" ? "not retried" : "retries exhausted";
  throw new LonghaulError(
    "PROVIDER",
    `${client.provider}: ${lastFailure?.message ?? "no attempt made"} (${how})`,
  );
}

/** "300 s", "1.5 s", "0.25 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** The host of a base URL (never its credentials). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "the endpoint";
  }
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
    // Without a price table the cost is unknown: reports say so rather than show $0.
    ...(client.price ? {} : { unpricedCalls: 1 }),
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

/** Usage arithmetic shared by agents, the runner and reports. */
import type { Usage } from "./protocol.ts";

/** Zero usage. */
export function emptyUsage(): Usage {
  return {
    calls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    latencyMs: 0,
    cachedCalls: 0,
    retries: 0,
  };
}

/** Sum of two usages (a new object); `unpricedCalls` appears only when some call was unpriced. */
export function addUsage(a: Usage, b: Usage): Usage {
  const unpriced = (a.unpricedCalls ?? 0) + (b.unpricedCalls ?? 0);
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costUsd: a.costUsd + b.costUsd,
    latencyMs: a.latencyMs + b.latencyMs,
    cachedCalls: a.cachedCalls + b.cachedCalls,
    retries: a.retries + b.retries,
    ...(unpriced > 0 ? { unpricedCalls: unpriced } : {}),
  };
}

/** Input plus output tokens, the quantity token budgets limit. */
export function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens;
}

/**
 * Two episodes of one task side by side (same task, two agents or two runs): the actions step
 * by step with the first step where they part, and the record fields and metrics compared.
 */
import type { Action, Trace, TraceStep } from "../../core/index.ts";

/** Longest text of a say or finish answer shown in a one-line summary. */
const MAX_TEXT = 80;

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** An action as one line: `pick(object=cup_1)`, `r1:move(to=dock)`, `say "..."`, `finish`. */
export function actionText(action: Action): string {
  switch (action.kind) {
    case "tool":
      return action.calls
        .map((c) => {
          const args = Object.entries(c.args)
            .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join(", ");
          return `${c.robot ? `${c.robot}:` : ""}${c.tool}(${args})`;
        })
        .join("; ");
    case "say":
      return `say ${JSON.stringify(clip(action.text))}`;
    case "wait":
      return "wait";
    case "finish":
      return action.answer === undefined
        ? "finish"
        : `finish ${JSON.stringify(clip(action.answer))}`;
  }
}

/** What a logged step did, as one line (a format error when the output was unusable). */
export function stepText(step: TraceStep): string {
  if (step.action) return actionText(step.action);
  return `format error: ${step.formatError ?? "no action"}`;
}

/** How a step's action came out: the invalid-action code, else the reward. */
export function resultText(step: TraceStep): string {
  const r = step.result;
  if (!r) return "";
  if (r.info.invalid) return `invalid (${r.info.invalid.code})`;
  return `reward ${r.reward}${r.terminated ? ", ended" : ""}`;
}

/** One step of the two episodes. */
export interface StepPair {
  step: number;
  a: string | null;
  b: string | null;
  resultA: string;
  resultB: string;
  same: boolean;
}

/** One compared field or metric. */
export interface ValuePair {
  name: string;
  a: string | number | null;
  b: string | number | null;
  same: boolean;
}

/** Two episodes compared. */
export interface EpisodeDiff {
  steps: StepPair[];
  /** The first step whose actions differ (or that one episode lacks); null when none does. */
  firstDivergence: number | null;
  fields: ValuePair[];
  metrics: ValuePair[];
}

const pair = (name: string, a: string | number | null, b: string | number | null): ValuePair => ({
  name,
  a,
  b,
  same: a === b,
});

/** Compare two traces of the same task step by step. */
export function diffTraces(a: Trace, b: Trace): EpisodeDiff {
  const length = Math.max(a.steps.length, b.steps.length);
  const steps: StepPair[] = [];
  for (let i = 0; i < length; i++) {
    const sa = a.steps[i];
    const sb = b.steps[i];
    const ta = sa ? stepText(sa) : null;
    const tb = sb ? stepText(sb) : null;
    steps.push({
      step: i,
      a: ta,
      b: tb,
      resultA: sa ? resultText(sa) : "",
      resultB: sb ? resultText(sb) : "",
      same: ta === tb,
    });
  }
  const first = steps.find((s) => !s.same);
  const ra = a.record;
  const rb = b.record;
  const tokens = (r: Trace["record"]) =>
    r.usage.inputTokens + r.usage.cachedInputTokens + r.usage.outputTokens;
  const names = [...new Set([...Object.keys(ra.metrics), ...Object.keys(rb.metrics)])].sort();
  return {
    steps,
    firstDivergence: first ? first.step : null,
    fields: [
      pair("agent", ra.agent, rb.agent),
      pair("status", ra.status, rb.status),
      pair("category", ra.category ?? null, rb.category ?? null),
      pair("ended by", ra.endedBy, rb.endedBy),
      pair("steps", ra.steps, rb.steps),
      pair("invalid actions", ra.invalidActions, rb.invalidActions),
      pair("format errors", ra.formatErrors, rb.formatErrors),
      pair("tokens", tokens(ra), tokens(rb)),
      pair("cost (USD)", ra.usage.costUsd, rb.usage.costUsd),
    ],
    metrics: names.map((n) => pair(n, ra.metrics[n] ?? null, rb.metrics[n] ?? null)),
  };
}

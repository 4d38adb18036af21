/**
 * One episode replayed step by step: the step list, and for the current step its observation
 * (events and view), the action or format error with the raw output, the result, and every
 * model call with its request, response, tokens, cost and latency. The suite's inspection adds
 * the scene graph of the step or the output compared with the required one. Keys: ← → (or
 * k j) step, Home End, [ ] previous and next episode.
 */
import type { ModelCall, Observation, Trace, TraceStep } from "../../core/index.ts";
import { resultText, stepText } from "../model/diff.ts";
import { dataKeys, type EpisodeDoc } from "../model/documents.ts";
import {
  badge,
  formatValue,
  indexOf,
  keyValues,
  num,
  pretty,
  routes,
  runOf,
  runs,
  setCrumbs,
} from "./common.ts";
import { comparisonView } from "./comparison-view.ts";
import { h, mount } from "./dom.ts";
import { graphView } from "./graph-view.ts";
import { load } from "./load.ts";

/** Render the page; returns the cleanup that removes its keyboard handler. */
export async function episodePage(
  app: HTMLElement,
  crumbs: HTMLElement,
  run: number,
  file: string,
  query: string,
): Promise<() => void> {
  const [summary, index, all] = await Promise.all([runOf(run), indexOf(run), runs()]);
  const at = index.rows.findIndex((r) => r.file === file);
  const row = index.rows[at];
  if (!row) throw new Error(`run ${summary.name} has no episode ${file}`);
  setCrumbs(crumbs, ["runs", "#/"], [summary.name, routes.run(run)], row.id);
  mount(app, h("p", { class: "muted" }, `Loading ${row.id}…`));
  const doc = await load<EpisodeDoc>(dataKeys.episode(run, file));
  const { trace, inspection } = doc;
  const last = trace.steps.length; // the final observation's position
  const requested = Number(new URLSearchParams(query).get("step") ?? "0");
  let pos = Number.isInteger(requested) ? Math.min(Math.max(0, requested), last) : 0;

  const prev = index.rows[at - 1];
  const next = index.rows[at + 1];
  // Runs of the same suite that hold this episode too: a diff with each.
  const sameSuite = all.filter((r) => r.index !== run && r.suite === summary.suite);
  const holding = await Promise.all(sameSuite.map((r) => indexOf(r.index)));
  const others = sameSuite.filter((_, i) => holding[i]?.rows.some((r) => r.file === file));
  const header = h(
    "div",
    null,
    h("h1", null, row.id, " ", badge(row.status)),
    keyValues([
      ["task", trace.card.title],
      ["agent", trace.record.agent],
      ["category", trace.record.category ?? ""],
      ["ended by", trace.record.endedBy],
      ["steps", num(trace.record.steps)],
      [
        "invalid actions / format errors",
        `${trace.record.invalidActions} / ${trace.record.formatErrors}`,
      ],
      [
        "tokens · cost · wall",
        `${num(row.tokens)} · ${formatValue(row.costUsd, "usd")} · ${formatValue(row.wallMs, "ms")}`,
      ],
      ["error", trace.record.error ?? ""],
    ]),
    h(
      "p",
      { class: "small" },
      prev && h("a", { id: "prev-episode", href: routes.episode(run, prev.file) }, `‹ ${prev.id}`),
      " ",
      next && h("a", { id: "next-episode", href: routes.episode(run, next.file) }, `${next.id} ›`),
      others.map((o) => [
        " · ",
        h("a", { href: routes.diff(run, o.index, file) }, `diff with ${o.name}`),
      ]),
    ),
    h(
      "details",
      null,
      h("summary", null, "task card and metrics"),
      h("pre", null, trace.card.instructions),
      keyValues(trace.card.rules.map((r, i) => [`rule ${i + 1}`, r])),
      h("pre", null, pretty(trace.record.metrics)),
    ),
    (inspection?.notes ?? []).length > 0 &&
      h(
        "ul",
        { class: "notes" },
        (inspection?.notes ?? []).map((n) => h("li", null, n)),
      ),
  );

  const list = h("ol", null);
  const items: HTMLElement[] = [];
  for (let i = 0; i <= last; i++) {
    const step = trace.steps[i];
    const label = step ? `${i}. ${stepText(step)}` : `${i}. final`;
    const cls = step?.formatError ? "error" : step?.result?.info.invalid ? "invalid" : "";
    const item = h(
      "li",
      { class: cls, title: label, attrs: { "data-step": String(i) }, on: { click: () => show(i) } },
      label,
    );
    items.push(item);
    list.appendChild(item);
  }
  const stepsBox = h("div", { class: "steps", id: "steps" }, list);
  const detail = h("div", { id: "step-detail" });
  const side = h("div", null);
  const keys = h(
    "p",
    { class: "keys" },
    h("kbd", null, "←"),
    " ",
    h("kbd", null, "→"),
    " step · ",
    h("kbd", null, "Home"),
    " ",
    h("kbd", null, "End"),
    " · ",
    h("kbd", null, "["),
    " ",
    h("kbd", null, "]"),
    " episode",
  );
  const comparison = inspection?.comparison ? comparisonView(inspection.comparison) : null;

  function show(p: number): void {
    pos = Math.min(Math.max(0, p), last);
    for (const [i, item] of items.entries()) item.classList.toggle("current", i === pos);
    keepInView(stepsBox, items[pos]);
    mount(detail, stepDetail(trace, pos));
    const frame = inspection?.graphs?.[pos];
    mount(
      side,
      frame ? graphView(frame, `scene graph at ${pos === last ? "the end" : `step ${pos}`}`) : null,
    );
    history.replaceState(null, "", routes.episode(run, file, pos));
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight" || e.key === "j") show(pos + 1);
    else if (e.key === "ArrowLeft" || e.key === "k") show(pos - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(last);
    else if (e.key === "]" && next) location.hash = routes.episode(run, next.file);
    else if (e.key === "[" && prev) location.hash = routes.episode(run, prev.file);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  mount(
    app,
    header,
    comparison,
    h(
      "div",
      { class: "replay" },
      h("div", null, keys, h("div", { class: "steps", id: "steps" }, list)),
      h("div", null, side, detail),
    ),
  );
  show(pos);
  return () => document.removeEventListener("keydown", onKey);
}

/** Scroll the step list (not the page) so the current step shows. */
function keepInView(box: HTMLElement, item: HTMLElement | undefined): void {
  if (!item) return;
  const top = item.offsetTop;
  if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = top - box.clientHeight / 2;
  }
}

/** Everything logged at one position: the observation, then what the agent did with it. */
function stepDetail(trace: Trace, pos: number): HTMLElement {
  const step = trace.steps[pos];
  const observation = step ? step.observation : trace.final;
  return h(
    "div",
    null,
    h("h2", null, step ? `Step ${pos}` : "Final observation"),
    observation
      ? observationView(observation)
      : h("p", { class: "muted" }, "No final observation was logged."),
    step && actionView(step),
    !step &&
      trace.outcome &&
      h(
        "div",
        { class: "panel" },
        h("h3", null, "Outcome"),
        h("pre", null, pretty(trace.outcome)),
        trace.score && h("pre", null, pretty(trace.score)),
      ),
  );
}

function observationView(o: Observation): HTMLElement {
  return h(
    "div",
    { class: "panel", id: "observation" },
    h("h3", null, "Observation", o.simTime === undefined ? "" : ` · t = ${o.simTime}`),
    o.events.length > 0
      ? h(
          "ul",
          { class: "events" },
          o.events.map((e) =>
            h(
              "li",
              null,
              h("span", { class: "event-type" }, e.type),
              e.robot ? ` [${e.robot}]` : "",
              e.time === undefined ? "" : ` @${e.time}`,
              e.text ? ` ${e.text}` : "",
              e.data === undefined
                ? ""
                : h("details", null, h("summary", null, "data"), h("pre", null, pretty(e.data))),
            ),
          ),
        )
      : h("p", { class: "muted small" }, "no events"),
    h(
      "details",
      { attrs: viewSize(o.view) < 20_000 ? { open: "" } : {} },
      h("summary", null, "view"),
      h("pre", null, pretty(o.view)),
    ),
  );
}

const viewSize = (view: unknown) => JSON.stringify(view ?? null).length;

function actionView(step: TraceStep): HTMLElement {
  const u = step.usage;
  return h(
    "div",
    { class: "panel", id: "action" },
    h("h3", null, step.formatError ? "Format error" : "Action"),
    // Spoken text reads as text, with its line breaks; other actions as JSON.
    step.action?.kind === "say"
      ? [h("p", { class: "muted small" }, "say"), h("pre", null, step.action.text)]
      : h("pre", null, step.action ? pretty(step.action) : (step.formatError ?? "")),
    step.note && keyValues([["note", step.note]]),
    step.extra &&
      h("details", null, h("summary", null, "extra fields"), h("pre", null, pretty(step.extra))),
    step.raw !== undefined &&
      h("details", null, h("summary", null, "raw output"), h("pre", null, step.raw)),
    step.result &&
      keyValues([
        ["result", resultText(step)],
        ["invalid", step.result.info.invalid?.reason ?? ""],
      ]),
    u &&
      keyValues([
        [
          "usage",
          `${u.calls} calls · ${num(u.inputTokens)} in (${num(u.cachedInputTokens)} cached) · ${num(u.outputTokens)} out · ${formatValue(u.costUsd, "usd")} · ${formatValue(u.latencyMs, "ms")}`,
        ],
      ]),
    (step.calls ?? []).map((call, i) => callView(call, i)),
  );
}

function callView(call: ModelCall, i: number): HTMLElement {
  const u = call.usage;
  return h(
    "details",
    { class: "call" },
    h(
      "summary",
      null,
      `call ${i + 1}: ${call.provider}:${call.model} · ${num(u.inputTokens)} in · ${num(u.outputTokens)} out · ${formatValue(u.costUsd, "usd")} · ${formatValue(u.latencyMs, "ms")}${call.cached ? " · cached" : ""}${call.attempts > 1 ? ` · ${call.attempts} attempts` : ""}`,
    ),
    call.error && h("p", { class: "error-box" }, call.error),
    h("h3", null, "request"),
    h("pre", null, pretty(call.request)),
    call.response !== undefined && [
      h("h3", null, "response"),
      h("pre", null, pretty(call.response)),
    ],
  );
}

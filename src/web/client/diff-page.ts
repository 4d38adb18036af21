/** One episode of two runs side by side, or the list of episodes both runs hold to pick one. */

import { diffTraces, type ValuePair } from "../model/diff.ts";
import { dataKeys, type EpisodeDoc, type IndexRow } from "../model/documents.ts";
import { badge, indexOf, num, routes, runOf, setCrumbs } from "./common.ts";
import { h, mount } from "./dom.ts";
import { load } from "./load.ts";

/** Render the diff page of runs `a` and `b`, for episode file `file` when given. */
export async function diffPage(
  app: HTMLElement,
  crumbs: HTMLElement,
  a: number,
  b: number,
  file: string | undefined,
): Promise<void> {
  const [ra, rb, ia, ib] = await Promise.all([runOf(a), runOf(b), indexOf(a), indexOf(b)]);
  setCrumbs(crumbs, ["runs", "#/"], `${ra.name} vs ${rb.name}`);
  const inB = new Map(ib.rows.map((r) => [r.file, r]));
  const shared = ia.rows.filter((r) => inB.has(r.file));
  if (file === undefined) {
    mount(app, h("h1", null, `${ra.name} vs ${rb.name}`), chooser(a, b, shared, inB));
    return;
  }
  const [da, db] = await Promise.all([
    load<EpisodeDoc>(dataKeys.episode(a, file)),
    load<EpisodeDoc>(dataKeys.episode(b, file)),
  ]);
  const diff = diffTraces(da.trace, db.trace);
  const values = (rows: ValuePair[]) =>
    h(
      "table",
      null,
      h(
        "thead",
        null,
        h("tr", null, h("th", null, ""), h("th", null, ra.name), h("th", null, rb.name)),
      ),
      h(
        "tbody",
        null,
        rows.map((p) =>
          h(
            "tr",
            { class: p.same ? "same" : "differs" },
            h("td", null, p.name),
            h("td", null, show(p.a)),
            h("td", null, show(p.b)),
          ),
        ),
      ),
    );
  mount(
    app,
    h("h1", null, da.trace.episodeId),
    h(
      "p",
      { class: "muted" },
      diff.firstDivergence === null
        ? "The two episodes took the same actions."
        : `The actions first differ at step ${diff.firstDivergence}.`,
      " ",
      h("a", { href: routes.diff(a, b) }, "another episode"),
    ),
    values(diff.fields),
    diff.metrics.length > 0 && [h("h2", null, "Metrics"), values(diff.metrics)],
    h("h2", null, "Steps"),
    h(
      "table",
      { id: "diff-steps" },
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ["step", `${ra.name}: action`, "result", `${rb.name}: action`, "result"].map((c) =>
            h("th", null, c),
          ),
        ),
      ),
      h(
        "tbody",
        null,
        diff.steps.map((st) =>
          h(
            "tr",
            {
              class: `${st.same ? "same" : "differs"}${st.step === diff.firstDivergence ? " first" : ""}`,
            },
            h(
              "td",
              { class: "num" },
              h("a", { href: routes.episode(a, file, st.step) }, String(st.step)),
            ),
            h("td", null, st.a ?? "—"),
            h("td", { class: "small" }, st.resultA),
            h("td", null, st.b ?? "—"),
            h("td", { class: "small" }, st.resultB),
          ),
        ),
      ),
    ),
  );
}

const show = (v: string | number | null) => (v === null ? "–" : typeof v === "number" ? num(v) : v);

function chooser(
  a: number,
  b: number,
  shared: IndexRow[],
  inB: Map<string, IndexRow>,
): HTMLElement {
  if (shared.length === 0) return h("p", null, "The two runs share no episode id.");
  return h(
    "div",
    null,
    h(
      "p",
      { class: "muted" },
      `${num(shared.length)} episodes in both runs; those whose status differs first.`,
    ),
    h(
      "table",
      { id: "shared" },
      h(
        "thead",
        null,
        h("tr", null, h("th", null, "episode"), h("th", null, "A"), h("th", null, "B")),
      ),
      h(
        "tbody",
        null,
        [...shared]
          .sort(
            (x, y) =>
              Number(x.status === inB.get(x.file)?.status) -
              Number(y.status === inB.get(y.file)?.status),
          )
          .slice(0, 500)
          .map((r) =>
            h(
              "tr",
              null,
              h("td", null, h("a", { href: routes.diff(a, b, r.file) }, r.id)),
              h("td", null, badge(r.status)),
              h("td", null, badge(inB.get(r.file)?.status ?? "missing")),
            ),
          ),
      ),
    ),
  );
}

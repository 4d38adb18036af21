/** The runs: one row per run directory with its headline numbers, and a two-run diff picker. */
import { badge, formatValue, num, routes, runs, setCrumbs } from "./common.ts";
import { h, mount } from "./dom.ts";

/** Render the runs page. */
export async function runsPage(app: HTMLElement, crumbs: HTMLElement): Promise<void> {
  setCrumbs(crumbs, "runs");
  const all = await runs();
  const table = h(
    "table",
    { id: "runs" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        [
          "run",
          "suite",
          "agent",
          "status",
          "episodes",
          "success rate",
          "tokens",
          "cost",
          "started",
        ].map((c) => h("th", null, c)),
      ),
    ),
    h(
      "tbody",
      null,
      all.map((r) =>
        h(
          "tr",
          null,
          h(
            "td",
            null,
            h("a", { href: routes.run(r.index) }, r.name),
            h("div", { class: "muted small" }, r.runId),
          ),
          h("td", null, r.suite),
          h("td", null, r.agent),
          h("td", null, badge(r.status, r.status === "finished" ? "success" : "invalid")),
          h("td", { class: "num" }, `${num(r.recorded)} / ${num(r.planned)}`),
          h("td", { class: "num" }, formatValue(r.successRate, "rate")),
          h("td", { class: "num" }, num(r.tokens)),
          h("td", { class: "num" }, formatValue(r.costUsd, "usd")),
          h("td", { class: "small" }, r.startedAt.replace("T", " ").slice(0, 19)),
        ),
      ),
    ),
  );
  const pick = (id: string, selected: number) =>
    h(
      "select",
      { id },
      all.map((r) => {
        const option = h("option", { attrs: { value: String(r.index) } }, `${r.name} (${r.agent})`);
        option.selected = r.index === selected;
        return option;
      }),
    );
  const a = pick("diff-a", 0);
  const b = pick("diff-b", Math.min(1, all.length - 1));
  const diff =
    all.length > 1
      ? h(
          "div",
          { class: "filters" },
          h("label", null, "run A", a),
          h("label", null, "run B", b),
          h(
            "button",
            {
              id: "diff-go",
              on: { click: () => (location.hash = routes.diff(Number(a.value), Number(b.value))) },
            },
            "compare an episode",
          ),
        )
      : h(
          "p",
          { class: "muted" },
          "Give `longhaul view` two runs to compare episodes between them.",
        );
  mount(
    app,
    h("h1", null, `${all.length} run${all.length === 1 ? "" : "s"}`),
    table,
    h("h2", null, "Two runs, one episode"),
    diff,
  );
}

/** A run: its episode table (filters, sorting, pages) or its report with figures. */
import type { Headline, ReportModel } from "../../core/index.ts";
import { formatHeadline, tableView as reportTableView } from "../../report/format.ts";
import {
  dataKeys,
  type IndexDoc,
  type IndexRow,
  type ReportDoc,
  type RunSummary,
} from "../model/documents.ts";
import {
  DEFAULT_STATE,
  type EpisodeFilter,
  formatState,
  parseState,
  type TableState,
  tableView,
} from "../model/filters.ts";
import { badge, formatValue, indexOf, num, routes, runOf, setCrumbs } from "./common.ts";
import { type Child, h, mount, trustedSvg } from "./dom.ts";
import { load } from "./load.ts";

/** Filters shown for at most this many suite dimensions. */
const MAX_DIMENSION_FILTERS = 8;

/** Render a run's page: `tab` "report" or the episode table. */
export async function runPage(
  app: HTMLElement,
  crumbs: HTMLElement,
  run: number,
  tab: string | undefined,
  query: string,
): Promise<void> {
  // The run list and the index load side by side: a large index should not wait for the list.
  const index = tab === "report" ? undefined : indexOf(run);
  const summary = await runOf(run);
  setCrumbs(crumbs, ["runs", "#/"], summary.name);
  const header = runHeader(summary, tab === "report" ? "report" : "episodes");
  if (!index) {
    mount(app, header, h("p", { class: "muted" }, "Drawing the report…"));
    const doc = await load<ReportDoc>(dataKeys.report(run));
    mount(app, header, reportView(doc));
    return;
  }
  mount(app, header, episodeTable(await index, parseState(query)));
}

function runHeader(r: RunSummary, active: "episodes" | "report"): HTMLElement {
  const tab = (name: "episodes" | "report", href: string) =>
    h("a", { href, class: name === active ? "active" : "" }, name);
  return h(
    "div",
    null,
    h("h1", null, r.name),
    h(
      "p",
      { class: "muted" },
      `suite ${r.suite} · agent ${r.agent} · run ${r.runId} · ${r.status} · ${num(r.recorded)} of ${num(r.planned)} episodes · success ${formatValue(r.successRate, "rate")} (${r.success} of ${r.success + r.failure} valid; ${r.invalid} invalid)`,
    ),
    h(
      "nav",
      { class: "tabs" },
      tab("episodes", routes.run(r.index)),
      tab("report", routes.report(r.index)),
    ),
  );
}

/** Headlines, figures and tables of each report model. */
function reportView(doc: ReportDoc): HTMLElement {
  const models = [doc.report.generic, doc.report.suite].filter(
    (m): m is ReportModel => m !== undefined,
  );
  return h(
    "div",
    { id: "report" },
    models.map((model) => {
      const figures = doc.figures.filter((f) => f.section === model.title);
      return h(
        "section",
        null,
        h("h2", null, model.title),
        h("ul", { class: "headlines" }, model.headlines.map(headline)),
        figures.length > 0 &&
          h(
            "div",
            { class: "figures" },
            figures.map((f) =>
              h(
                "figure",
                { id: `figure-${f.id}` },
                trustedSvg(f.svg),
                h(
                  "figcaption",
                  null,
                  h("b", null, `${f.title}.`),
                  f.caption ? ` ${f.caption}` : "",
                ),
              ),
            ),
          ),
        h(
          "details",
          null,
          h("summary", null, `${model.tables.length} tables`),
          model.tables.map((t) => {
            const view = reportTableView(t);
            return [
              h("h3", null, t.title),
              t.caption && h("p", { class: "muted small" }, t.caption),
              h(
                "table",
                null,
                h(
                  "thead",
                  null,
                  h(
                    "tr",
                    null,
                    view.header.map((c) => h("th", null, c)),
                  ),
                ),
                h(
                  "tbody",
                  null,
                  view.rows.map((row) =>
                    h(
                      "tr",
                      null,
                      row.map((cell, i) => h("td", { class: view.numeric[i] ? "num" : "" }, cell)),
                    ),
                  ),
                ),
              ),
            ];
          }),
        ),
        (model.notes ?? []).map((n) => h("p", { class: "muted small" }, n)),
      );
    }),
  );
}

function headline(hl: Headline): HTMLElement {
  return h(
    "li",
    null,
    h("div", { class: "name" }, hl.name),
    h("div", { class: "value" }, formatHeadline(hl)),
    hl.note && h("div", { class: "note" }, hl.note),
  );
}

/** The columns of the episode table: label, sort key, cell. */
interface Column {
  label: string;
  key: string;
  numeric?: boolean;
  cell(row: IndexRow, run: number): Child;
}

function columns(metric: string | undefined): Column[] {
  const cols: Column[] = [
    {
      label: "episode",
      key: "id",
      cell: (r, run) => h("a", { href: routes.episode(run, r.file) }, r.id),
    },
    { label: "family", key: "family", cell: (r) => r.family },
    { label: "status", key: "status", cell: (r) => badge(r.status) },
    { label: "category", key: "category", cell: (r) => r.category ?? "" },
    { label: "ended by", key: "endedBy", cell: (r) => r.endedBy },
    { label: "steps", key: "steps", numeric: true, cell: (r) => num(r.steps) },
    { label: "invalid", key: "invalidActions", numeric: true, cell: (r) => num(r.invalidActions) },
    { label: "tokens", key: "tokens", numeric: true, cell: (r) => num(r.tokens) },
    { label: "cost", key: "costUsd", numeric: true, cell: (r) => formatValue(r.costUsd, "usd") },
    { label: "wall", key: "wallMs", numeric: true, cell: (r) => formatValue(r.wallMs, "ms") },
  ];
  if (metric) {
    cols.push({
      label: metric,
      key: `metric:${metric}`,
      numeric: true,
      cell: (r) => num(r.metrics[metric] ?? null),
    });
  }
  return cols;
}

/** The filter bar, the table of the current page and the pager; every change is a new address. */
function episodeTable(index: IndexDoc, state: TableState): HTMLElement {
  const go = (next: TableState) => {
    location.hash = routes.run(index.run, formatState(next));
  };
  const setFilter = (change: Partial<EpisodeFilter>) =>
    go({ ...state, filter: { ...state.filter, ...change }, page: 0 });
  const choice = (
    id: string,
    label: string,
    values: string[],
    current: string | undefined,
    set: (v: string | undefined) => void,
  ) => {
    const select = h(
      "select",
      { id, on: { change: () => set(select.value === "" ? undefined : select.value) } },
      h("option", { attrs: { value: "" } }, "all"),
      values.map((v) => {
        const o = h("option", { attrs: { value: v } }, v === "" ? "(none)" : v);
        o.selected = v === current;
        return o;
      }),
    );
    return h("label", null, label, select);
  };
  const f = state.filter;
  const numberInput = (
    id: string,
    value: number | undefined,
    set: (v: number | undefined) => void,
  ) => {
    const input = h("input", {
      id,
      attrs: { type: "number", step: "any", value: value === undefined ? "" : String(value) },
      on: {
        change: () => set(input.value.trim() === "" ? undefined : Number(input.value)),
      },
    });
    return input;
  };
  const search = h("input", {
    id: "filter-text",
    attrs: { type: "search", placeholder: "episode id contains", value: f.text ?? "" },
    on: { change: () => setFilter({ text: search.value.trim() || undefined }) },
  });
  const metric = f.metric ?? index.primaryMetric ?? undefined;
  const bar = h(
    "div",
    { class: "filters", id: "filters" },
    h("label", null, "search", search),
    choice("filter-status", "status", ["success", "failure", "invalid"], f.status, (v) =>
      setFilter({ status: v }),
    ),
    index.categories.length > 0 &&
      choice("filter-category", "failure category", index.categories, f.category, (v) =>
        setFilter({ category: v }),
      ),
    index.families.length > 1 &&
      choice("filter-family", "family", index.families, f.family, (v) => setFilter({ family: v })),
    index.dimensions.slice(0, MAX_DIMENSION_FILTERS).map((d) =>
      choice(`filter-tag-${d.name}`, d.name, d.values, f.tags[d.name], (v) => {
        const tags = { ...f.tags };
        if (v === undefined) delete tags[d.name];
        else tags[d.name] = v;
        setFilter({ tags });
      }),
    ),
    index.metrics.length > 0 && [
      choice("filter-metric", "score", index.metrics, f.metric, (v) => setFilter({ metric: v })),
      h(
        "label",
        null,
        "min",
        numberInput("filter-min", f.min, (v) => setFilter({ min: v, metric })),
      ),
      h(
        "label",
        null,
        "max",
        numberInput("filter-max", f.max, (v) => setFilter({ max: v, metric })),
      ),
    ],
    h("button", { id: "filter-clear", on: { click: () => go(DEFAULT_STATE) } }, "clear"),
  );
  const view = tableView(index.rows, state);
  const cols = columns(metric);
  const sortBy = (key: string) =>
    go({
      ...state,
      sort: { key, descending: state.sort.key === key ? !state.sort.descending : false },
      page: 0,
    });
  const arrow = (key: string) =>
    state.sort.key === key
      ? h("span", { class: "arrow" }, state.sort.descending ? " ▼" : " ▲")
      : null;
  const table = h(
    "table",
    { id: "episodes" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        cols.map((c) =>
          h(
            "th",
            {
              class: `sortable${c.numeric ? " num" : ""}`,
              attrs: { "data-key": c.key },
              on: { click: () => sortBy(c.key) },
            },
            c.label,
            arrow(c.key),
          ),
        ),
      ),
    ),
    h(
      "tbody",
      null,
      view.shown.length === 0 &&
        h(
          "tr",
          { class: "empty" },
          h("td", { attrs: { colspan: String(cols.length) } }, "No episode matches these filters."),
        ),
      view.shown.map((row) =>
        h(
          "tr",
          null,
          cols.map((c) => h("td", { class: c.numeric ? "num" : "" }, c.cell(row, index.run))),
        ),
      ),
    ),
  );
  const pager = h(
    "div",
    { class: "pager" },
    h(
      "span",
      { id: "matched" },
      `${num(view.matched.length)} of ${num(index.rows.length)} episodes`,
    ),
    view.pages > 1 && [
      h(
        "button",
        {
          attrs: view.page === 0 ? { disabled: "" } : {},
          on: { click: () => go({ ...state, page: view.page - 1 }) },
        },
        "‹ prev",
      ),
      h("span", null, `page ${view.page + 1} of ${view.pages}`),
      h(
        "button",
        {
          attrs: view.page + 1 >= view.pages ? { disabled: "" } : {},
          on: { click: () => go({ ...state, page: view.page + 1 }) },
        },
        "next ›",
      ),
    ],
  );
  return h("div", null, bar, pager, table);
}

/**
 * An input document and the output side by side: the input as the model read it, and every
 * required row with what the output stated for it, wrong records marked and the required text
 * beneath. Table rows mark each wrong cell.
 */
import type { ComparedRow, TextComparison } from "../../core/index.ts";
import { h, mount } from "./dom.ts";

function rowView(row: ComparedRow): HTMLElement {
  const wrong = row.marks.some((m) => !m);
  if (row.stated === null) {
    return h(
      "div",
      { class: "wrong" },
      h("span", { class: "label" }, row.label),
      h("span", { class: "missing" }, "nothing stated"),
      h("span", { class: "want" }, row.expected),
    );
  }
  const stated =
    row.marks.length > 1
      ? row.stated
          .split(",")
          .map((cell, i) => [
            i > 0 ? "," : "",
            row.marks[i] === false ? h("span", { class: "cell-bad" }, cell) : cell,
          ])
      : row.stated;
  return h(
    "div",
    { class: wrong ? "wrong" : "" },
    h("span", { class: "label" }, row.label),
    stated,
    wrong && h("span", { class: "want" }, row.expected),
  );
}

/** The comparison panel, with a toggle to list the wrong rows only. */
export function comparisonView(c: TextComparison): HTMLElement {
  const records = c.rows.reduce((n, r) => n + r.marks.length, 0);
  const correct = c.rows.reduce((n, r) => n + r.marks.filter(Boolean).length, 0);
  const wrongRows = c.rows.filter((r) => r.marks.some((m) => !m));
  const list = h("div", { class: "rows", id: "compared-rows" });
  const onlyErrors = h("input", { attrs: { type: "checkbox", id: "only-errors" } });
  const fill = () => mount(list, (onlyErrors.checked ? wrongRows : c.rows).map(rowView));
  onlyErrors.addEventListener("change", fill);
  fill();
  return h(
    "div",
    { class: "panel", id: "comparison" },
    h("h3", null, "Document and output"),
    h(
      "p",
      { class: "small" },
      `${correct} of ${records} records right; ${wrongRows.length} of ${c.rows.length} rows hold an error. `,
      h("label", null, onlyErrors, " wrong rows only"),
    ),
    h(
      "div",
      { class: "compare" },
      h("div", null, h("h3", null, "input"), h("pre", { id: "document-input" }, c.input)),
      h(
        "div",
        null,
        h("h3", null, c.output === null ? "output (none given)" : "output, row by row"),
        list,
      ),
    ),
  );
}

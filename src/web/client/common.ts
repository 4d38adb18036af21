/** Pieces several pages share: loading runs and indexes, status badges, numbers, crumbs. */
import { formatValue } from "../../report/format.ts";
import { dataKeys, type IndexDoc, type RunSummary } from "../model/documents.ts";
import { type Child, h, mount } from "./dom.ts";
import { load } from "./load.ts";

export { formatValue };

/** Every run. */
export const runs = () => load<RunSummary[]>(dataKeys.runs);

/** One run, or an error naming it. */
export async function runOf(index: number): Promise<RunSummary> {
  const run = (await runs())[index];
  if (!run) throw new Error(`no run ${index}`);
  return run;
}

/** A run's episode index. */
export const indexOf = (run: number) => load<IndexDoc>(dataKeys.index(run));

/** A status as a colored badge; `tone` picks the color when it is not the status itself. */
export const badge = (status: string, tone = status) =>
  h("span", { class: `status ${tone}` }, status);

/** The crumbs line: links, then the current page's name. */
export function setCrumbs(crumbs: HTMLElement, ...items: ([string, string] | string)[]): void {
  mount(
    crumbs,
    items.map((item) =>
      typeof item === "string" ? h("span", null, item) : h("a", { href: item[1] }, item[0]),
    ),
  );
}

/** A definition list of label/value pairs; pairs with an empty value are left out. */
export function keyValues(pairs: [string, Child][]): HTMLElement {
  return h(
    "dl",
    { class: "kv" },
    pairs
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => [h("dt", null, k), h("dd", null, v)]),
  );
}

/** A compact number: integers grouped, others with three significant digits. */
export function num(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return formatValue(value, Number.isInteger(value) ? "int" : "number");
}

/** JSON as indented text. */
export const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The route of a run's table, an episode, a diff. */
export const routes = {
  run: (run: number, query = "") => `#/run/${run}${query ? `?${query}` : ""}`,
  report: (run: number) => `#/run/${run}/report`,
  episode: (run: number, file: string, step?: number) =>
    `#/run/${run}/episode/${encodeURIComponent(file)}${step === undefined ? "" : `?step=${step}`}`,
  diff: (a: number, b: number, file?: string) =>
    `#/diff/${a}/${b}${file === undefined ? "" : `/${encodeURIComponent(file)}`}`,
};

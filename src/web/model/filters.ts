/**
 * The episode table's state: filters (status, failure category, family, suite dimensions, a
 * score range on one metric, id text), sorting and the page, read from and written to the
 * query part of the page's address so every view has a link. Pure functions over index rows.
 */
import type { IndexRow } from "./documents.ts";

/** What the table keeps; every field left out keeps all. */
export interface EpisodeFilter {
  status?: string;
  category?: string;
  family?: string;
  /** Tag name -> the value kept. */
  tags: Record<string, string>;
  /** Score range: rows whose metric is a number within [min, max]. */
  metric?: string;
  min?: number;
  max?: number;
  /** Case-insensitive text the episode id must contain. */
  text?: string;
}

/** Sorting by a column: a row field, `metric:<name>` or `tag:<name>`; "" keeps index order. */
export interface EpisodeSort {
  key: string;
  descending: boolean;
}

/** The table state one address holds. */
export interface TableState {
  filter: EpisodeFilter;
  sort: EpisodeSort;
  /** Zero-based page. */
  page: number;
}

/** Rows per page of the episode table. */
export const PAGE_SIZE = 100;

/** The default: every episode, in index order (episode ids in natural order). */
export const DEFAULT_STATE: TableState = {
  filter: { tags: {} },
  sort: { key: "", descending: false },
  page: 0,
};

/** Whether a row passes every filter. */
export function matches(row: IndexRow, f: EpisodeFilter): boolean {
  if (f.status !== undefined && row.status !== f.status) return false;
  if (f.category !== undefined && (row.category ?? "") !== f.category) return false;
  if (f.family !== undefined && row.family !== f.family) return false;
  for (const [tag, value] of Object.entries(f.tags)) {
    const v = row.tags[tag];
    if (v === undefined || String(v) !== value) return false;
  }
  if (f.metric !== undefined && (f.min !== undefined || f.max !== undefined)) {
    const v = row.metrics[f.metric];
    if (typeof v !== "number") return false;
    if (f.min !== undefined && v < f.min) return false;
    if (f.max !== undefined && v > f.max) return false;
  }
  if (f.text && !row.id.toLowerCase().includes(f.text.toLowerCase())) return false;
  return true;
}

/** The rows that pass the filter, in their order. */
export function filterRows(rows: readonly IndexRow[], filter: EpisodeFilter): IndexRow[] {
  return rows.filter((row) => matches(row, filter));
}

/** The value a row sorts by under `key`; undefined sorts last whatever the direction. */
export function sortValue(row: IndexRow, key: string): string | number | undefined {
  if (key.startsWith("metric:")) return row.metrics[key.slice(7)] ?? undefined;
  if (key.startsWith("tag:")) return row.tags[key.slice(4)];
  const v = (row as unknown as Record<string, unknown>)[key];
  return typeof v === "string" || typeof v === "number" ? v : undefined;
}

const collator = new Intl.Collator("en", { numeric: true });

/** Numbers by value, text in natural order ("t2" before "t10"); the sort is stable. */
export function sortRows(rows: readonly IndexRow[], sort: EpisodeSort): IndexRow[] {
  if (sort.key === "") return sort.descending ? [...rows].reverse() : [...rows];
  const keyed = rows.map((row, i) => ({ row, i, v: sortValue(row, sort.key) }));
  const sign = sort.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.v === undefined || b.v === undefined) {
      if (a.v === b.v) return a.i - b.i;
      return a.v === undefined ? 1 : -1;
    }
    const c =
      typeof a.v === "number" && typeof b.v === "number"
        ? a.v - b.v
        : collator.compare(String(a.v), String(b.v));
    return c !== 0 ? sign * c : a.i - b.i;
  });
  return keyed.map((k) => k.row);
}

/** Filter, sort and cut one page: the rows shown, the count that passed, the pages. */
export function tableView(
  rows: readonly IndexRow[],
  state: TableState,
): { shown: IndexRow[]; matched: IndexRow[]; pages: number; page: number } {
  const matched = sortRows(filterRows(rows, state.filter), state.sort);
  const pages = Math.max(1, Math.ceil(matched.length / PAGE_SIZE));
  const page = Math.min(Math.max(0, state.page), pages - 1);
  return { shown: matched.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE), matched, pages, page };
}

const finite = (text: string | null): number | undefined => {
  if (text === null || text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
};

/** The table state in a query string (`status=failure&tag.task=arith&sort=-steps&page=2`). */
export function parseState(query: string): TableState {
  const p = new URLSearchParams(query);
  const tags: Record<string, string> = {};
  for (const [k, v] of p) if (k.startsWith("tag.")) tags[k.slice(4)] = v;
  const filter: EpisodeFilter = { tags };
  for (const key of ["status", "category", "family", "metric"] as const) {
    const v = p.get(key);
    if (v !== null && v !== "") filter[key] = v;
  }
  const min = finite(p.get("min"));
  const max = finite(p.get("max"));
  if (min !== undefined) filter.min = min;
  if (max !== undefined) filter.max = max;
  const text = p.get("q");
  if (text) filter.text = text;
  const sort = p.get("sort") ?? "";
  const page = Math.max(0, Math.floor(finite(p.get("page")) ?? 1) - 1);
  return {
    filter,
    sort: { key: sort.replace(/^-/, ""), descending: sort.startsWith("-") },
    page,
  };
}

/** The query string of a table state; defaults are left out, so the empty state is "". */
export function formatState(state: TableState): string {
  const p = new URLSearchParams();
  const f = state.filter;
  if (f.status !== undefined) p.set("status", f.status);
  if (f.category !== undefined) p.set("category", f.category);
  if (f.family !== undefined) p.set("family", f.family);
  for (const [k, v] of Object.entries(f.tags).sort()) p.set(`tag.${k}`, v);
  if (f.metric !== undefined) p.set("metric", f.metric);
  if (f.min !== undefined) p.set("min", String(f.min));
  if (f.max !== undefined) p.set("max", String(f.max));
  if (f.text) p.set("q", f.text);
  if (state.sort.key !== "" || state.sort.descending)
    p.set("sort", `${state.sort.descending ? "-" : ""}${state.sort.key}`);
  if (state.page > 0) p.set("page", String(state.page + 1));
  return p.toString();
}

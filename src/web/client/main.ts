/**
 * The viewer page: hash routes (they work from file:// too), each rendering one page into
 * #app from the data documents it loads.
 *
 *   #/                              runs
 *   #/run/<i>?<table state>         a run's episode table (filters and sorting in the query)
 *   #/run/<i>/report                a run's report with its figures
 *   #/run/<i>/episode/<file>?step=N one episode replayed step by step
 *   #/diff/<a>/<b>[/<file>]         one episode of two runs side by side (or the choice of one)
 */

import { diffPage } from "./diff-page.ts";
import { h, mount } from "./dom.ts";
import { episodePage } from "./episode-page.ts";
import { runPage } from "./run-page.ts";
import { runsPage } from "./runs-page.ts";

/** A parsed route: path segments and the query. */
export interface Route {
  parts: string[];
  query: string;
}

function currentRoute(): Route {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path = "/", query = ""] = hash.split("?", 2);
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), query };
}

/** Cleanup of the page shown (e.g. its keyboard handler), run before the next page. */
let leave: (() => void) | undefined;

async function render(): Promise<void> {
  leave?.();
  leave = undefined;
  const app = document.getElementById("app") as HTMLElement;
  const crumbs = document.getElementById("crumbs") as HTMLElement;
  const route = currentRoute();
  const [head, a, b, c] = route.parts;
  try {
    if (head === undefined) await runsPage(app, crumbs);
    else if (head === "run" && a !== undefined && b === "episode" && c !== undefined)
      leave = await episodePage(app, crumbs, Number(a), c, route.query);
    else if (head === "run" && a !== undefined)
      await runPage(app, crumbs, Number(a), b, route.query);
    else if (head === "diff" && a !== undefined && b !== undefined)
      await diffPage(app, crumbs, Number(a), Number(b), c);
    else mount(app, h("p", null, "No such page. "), h("a", { href: "#/" }, "All runs"));
  } catch (error) {
    mount(app, h("div", { class: "error-box" }, (error as Error).message));
  }
}

window.addEventListener("hashchange", () => void render());
void render();

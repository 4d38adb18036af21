import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ReportModel } from "../core/index.ts";
import { buildReport, type FullReport } from "./build.ts";
import { renderHtml } from "./html.ts";
import { escapeHtml } from "./html-escape.ts";
import { markdownTable, renderMarkdown } from "./markdown.ts";
import { renderSummary } from "./summary.ts";
import { makeRecord } from "./test-records.ts";
import { writeReport } from "./write.ts";

const hostile: ReportModel = {
  suite: "toy",
  title: "Suite <tables> & more",
  episodes: 2,
  headlines: [
    { name: "score", value: 0.25, low: 0.1, high: 0.5, format: "rate", note: "a 'quoted' note" },
  ],
  tables: [
    {
      title: "Per <b>room</b>",
      caption: 'rooms "as named"',
      columns: ["room|name", "SR"],
      formats: ["text", "rate"],
      rows: [["<script>alert(1)</script>", 0.125]],
    },
    { title: "Empty", columns: ["x"], rows: [] },
  ],
  notes: ["suite note"],
};

const report: FullReport = {
  ...buildReport({
    runId: "run-<1>",
    suite: "toy",
    agent: "agent & co",
    planned: 3,
    status: "interrupted",
    records: [
      makeRecord("t1", { status: "success" }),
      makeRecord("t2", { status: "failure", category: "QUIT" }),
    ],
  }),
  suite: hostile,
};

describe("renderMarkdown", () => {
  const md = renderMarkdown(report);

  it("renders every table of both models", () => {
    for (const table of [...report.generic.tables, ...hostile.tables]) {
      expect(md).toContain(`### ${table.title.replace(/</g, "\\<")}`);
    }
    expect(md).toContain("| family | valid | successes | success rate | 95% CI | invalid |");
    expect(md).toContain("| A | 2 | 1 | 50.0% | [9.5%, 90.5%] | 0 |");
    expect(md).toContain("(no rows)");
  });

  it("formats headlines with intervals and escapes table syntax", () => {
    expect(md).toContain("- **success rate**: 50.0% [9.5%, 90.5%]");
    expect(md).toContain("- **score**: 25.0% [10.0%, 50.0%]");
    expect(md).toContain("| room\\|name | SR |");
    expect(md).toContain("| \\<script>alert(1)\\</script> | 12.5% |");
    expect(md).toContain("> suite note");
  });
});

describe("markdownTable", () => {
  it("keeps one line per row and one column per cell whatever the text", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 5 }), (rows) => {
        const lines = markdownTable({
          header: ["a", "b"],
          rows: rows.map((r) => [...r]),
          numeric: [false, false],
        });
        expect(lines).toHaveLength(rows.length + 2);
        for (const line of lines) {
          // unescaped pipes: a pipe preceded by an even number of backslashes
          expect(line.match(/(?<!\\)(?:\\\\)*\|/g)).toHaveLength(3);
          expect(line).not.toMatch(/\n/);
        }
      }),
    );
  });
});

describe("renderHtml", () => {
  const html = renderHtml(report);

  it("escapes every piece of text", () => {
    expect(html).toContain("episodes 2 recorded of 3 planned, run interrupted");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>");
    expect(html).toContain("Per &lt;b&gt;room&lt;/b&gt;");
    expect(html).toContain("agent &amp; co");
    expect(html).toContain("run-&lt;1&gt;");
    expect(html).toContain("rooms &quot;as named&quot;");
  });

  it("escapes reversibly and leaves no markup characters", () => {
    const decode = (t: string) =>
      t.replace(
        /&(lt|gt|quot|#39|amp);/g,
        (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e] ?? e,
      );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(decode(escaped)).toBe(text);
      }),
    );
  });

  it("is self-contained and shows every table with formatted cells", () => {
    expect(html).not.toMatch(/\ssrc=/);
    expect(html).not.toContain("http");
    // The only links point at the run's own trace files.
    expect(html.match(/href="[^"]*"/g)).toEqual([
      'href="traces/t1@0.json.gz"',
      'href="traces/t2@0.json.gz"',
    ]);
    expect((html.match(/<table>/g) ?? []).length).toBe(
      report.generic.tables.length + hostile.tables.length + 1,
    );
    expect(html).toContain('<td class="num">[9.5%, 90.5%]</td>');
    expect(html).toContain("25.0% [10.0%, 50.0%]");
  });
});

describe("renderSummary", () => {
  it("gives counts and both models' headlines in a few lines", () => {
    const text = renderSummary(report);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(
      "episodes: 2 recorded of 3 planned, run interrupted (success 1, failure 1, invalid 0, missing 1)",
    );
    expect(lines[2]).toContain("success rate 50.0% [9.5%, 90.5%]");
    expect(lines[3]).toBe("Suite <tables> & more: score 25.0% [10.0%, 50.0%]");
    expect(lines[4]).toBe("failures by category: QUIT 1");
  });

  it("groups invalid episodes by error message, and names the model and its host", () => {
    const records = [
      makeRecord("t1", { status: "failure", category: "TIME" }),
      ...["t2", "t3", "t4"].map((t) =>
        makeRecord(t, { status: "invalid", category: "ERR", error: "openai:m: HTTP 500" }),
      ),
      makeRecord("t5", { status: "invalid", category: "ERR", error: "boom\u0000\nstack" }),
    ];
    const full = buildReport({
      runId: "r",
      suite: "toy",
      agent: "llm:openai:m",
      model: "openai:m",
      endpoint: "127.0.0.1:8000",
      records,
    });
    expect(renderSummary(full).trimEnd().split("\n").slice(0, 1)).toEqual([
      "run r · suite toy · agent llm:openai:m (model openai:m at 127.0.0.1:8000)",
    ]);
    expect(renderSummary(full).trimEnd().split("\n").slice(3)).toEqual([
      "failures by category: ERR 4 · TIME 1",
      "invalid episodes by error:",
      "  3x openai:m: HTTP 500 (first: t2@0)",
      "  1x boom\\x00 (first: t5@0)",
    ]);
    const md = renderMarkdown(full);
    expect(md).toContain("- agent: llm:openai:m (model openai:m at 127.0.0.1:8000)");
    expect(md).toContain("| openai:m: HTTP 500 | 3 | t2@0 |");
    expect(renderHtml(full)).toContain(
      '<td>openai:m: HTTP 500</td><td class="num">3</td><td>t2@0</td>',
    );
  });

  it("says the cost is unknown when model calls had no price, never $0", () => {
    const unpriced = buildReport({
      runId: "r",
      suite: "toy",
      agent: "llm:openai:m",
      records: [
        makeRecord("t1", { usage: { calls: 2, unpricedCalls: 2, inputTokens: 10 } }),
        makeRecord("t2", { usage: { calls: 1, costUsd: 0.5 } }),
      ],
    });
    const cost = unpriced.generic.headlines.find((h) => h.name === "cost");
    expect(cost).toMatchObject({ value: null, absent: "unknown" });
    expect(renderSummary(unpriced)).toContain("· cost unknown ·");
    const md = renderMarkdown(unpriced);
    expect(md).toContain(
      "- **cost**: unknown (2 of 3 model calls had no price; give a price table (--prices))",
    );
    expect(md).toContain("| cost (USD) | unknown | unknown | unknown |");
    expect(md).toContain(
      "| t1@0 | success | – | 0 | 10 | unknown | [traces/t1@0.json.gz](traces/t1@0.json.gz) |",
    );
    expect(md).not.toContain("$0.0000");
  });
});

describe("the episode listing", () => {
  it("lists every episode folded at the end of both reports, with its trace", () => {
    const md = renderMarkdown(report);
    const listing = md.slice(md.indexOf("## Episodes\n"));
    expect(listing.split("\n").slice(0, 5)).toEqual([
      "## Episodes",
      "",
      "<details><summary>2 episodes: episode, status, category, steps, tokens, cost, trace</summary>",
      "",
      "| episode | status | category | steps | tokens | cost | trace |",
    ]);
    expect(listing).toContain(
      "| t2@0 | failure | QUIT | 0 | 0 | $0.0000 | [traces/t2@0.json.gz](traces/t2@0.json.gz) |",
    );
    expect(listing.trimEnd().endsWith("</details>")).toBe(true);
    const html = renderHtml(report);
    expect(html).toMatch(/<details><summary>2 episodes: [^<]*<\/summary>\n<table>/);
  });

  it("orders episodes by epoch and task id, whatever order they finished in", () => {
    const records = ["t10", "t2", "t1"].flatMap((t) =>
      [1, 0].map((epoch) => makeRecord(t, { epoch })),
    );
    const listing = (rs: typeof records) =>
      buildReport({ runId: "r", suite: "toy", agent: "a", records: rs }).episodes.rows.map(
        (r) => r[0],
      );
    expect(listing(records)).toEqual(["t1@0", "t2@0", "t10@0", "t1@1", "t2@1", "t10@1"]);
    expect(listing([...records].reverse())).toEqual(listing(records));
  });
});

describe("writeReport", () => {
  it("writes report.md and report.html with its figures drawn inline", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "longhaul-report-")), "nested");
    const paths = await writeReport(dir, report);
    expect(paths).toEqual({ markdown: join(dir, "report.md"), html: join(dir, "report.html") });
    expect(readFileSync(paths.markdown, "utf8")).toBe(renderMarkdown(report));
    const html = readFileSync(paths.html, "utf8");
    const figures = report.generic.figures ?? [];
    expect(figures.map((f) => f.id)).toEqual(["success-by-family"]);
    expect(html).toContain('<figure id="figure-success-by-family"><svg');
    expect(html).toContain("<b>Success by family.</b>");
    // The figure sits in the overview section, before the tables.
    expect(html.indexOf("<figure")).toBeLessThan(html.indexOf("<table>"));
    expect(html.indexOf("<figure")).toBeGreaterThan(html.indexOf("Run overview"));
  });
});

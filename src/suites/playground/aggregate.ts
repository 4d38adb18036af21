/**
 * EP's scores (§5.5, §6.1): Pass@k per condition from its first k valid attempts (epochs in
 * chronological order, stopping at the first success; invalid attempts consume no
 * opportunity), conditions averaged within tasks, tasks within suites, suites equally
 * (suite-balanced). Subsets EP-100 / EP-Easy / EP-Hard / EP-20 are restricted to the tasks
 * implemented, so each subset's score balances over the suites it has (Launch and Tower here).
 * Time@S: mean wall time of successful attempts; Tok@S: mean tokens of successful attempts.
 */
import type { Cell, EpisodeRecord, Headline, ReportModel, ReportTable } from "../../core/index.ts";
import { firstKValidPassAtK, groupBy, mean, nestedBalancedMean } from "../../metrics/index.ts";
import { passAtKBySuite } from "./figures.ts";
import { FAILURE_CODES } from "./protocol.ts";

/** A condition's attempts in epoch order. */
function conditions(records: EpisodeRecord[]): EpisodeRecord[][] {
  return [...groupBy(records, (r) => r.taskId).values()].map((rs) =>
    [...rs].sort((a, b) => a.epoch - b.epoch),
  );
}

/**
 * An attempt counts as an opportunity unless it is invalid: a runner fault (status invalid) or
 * an attempt the evaluator voided (ERR: a rejected action, §5.4; Table 19).
 */
const isValid = (r: EpisodeRecord) => r.status !== "invalid" && r.category !== "ERR";

const taskOf = (r: EpisodeRecord) => String(r.tags.index);
const suiteOf = (r: EpisodeRecord) => String(r.tags.suite);

/** Suite-balanced Pass@k over conditions; null when some condition is still unscored. */
export function suiteBalancedPass(records: EpisodeRecord[], k: number): number | null {
  const scored = conditions(records).map((attempts) => ({
    first: attempts[0]!,
    pass: firstKValidPassAtK(
      attempts.map((a) => ({ valid: isValid(a), success: a.status === "success" })),
      k,
    ),
  }));
  if (scored.length === 0 || scored.some((c) => c.pass === null)) return null;
  return nestedBalancedMean(
    scored,
    [(c) => suiteOf(c.first), (c) => taskOf(c.first)],
    (c) => c.pass!,
  );
}

const tokens = (r: EpisodeRecord) =>
  r.usage.inputTokens + r.usage.cachedInputTokens + r.usage.outputTokens;

/** The EP subsets over implemented tasks. */
const SUBSETS: [string, (r: EpisodeRecord) => boolean][] = [
  ["EP-100", () => true],
  ["EP-Easy", (r) => r.tags.split === "Easy"],
  ["EP-Hard", (r) => r.tags.split === "Hard"],
  ["EP-20", (r) => r.tags.ep20 === "yes"],
];

export function aggregatePlayground(all: EpisodeRecord[]): ReportModel {
  const records = all.filter((r) => r.suite === "playground");
  const successes = records.filter((r) => r.status === "success");
  const headlines: Headline[] = [
    { name: "Pass@1 (EP-100, implemented)", value: suiteBalancedPass(records, 1), format: "rate" },
    {
      name: "Pass@2 (EP-100, implemented)",
      value: suiteBalancedPass(records, 2),
      format: "rate",
      note: "needs two epochs where the first failed",
    },
    {
      name: "Time@S",
      value: successes.length ? mean(successes.map((r) => r.wallMs)) : null,
      format: "ms",
    },
    { name: "Tok@S", value: successes.length ? mean(successes.map(tokens)) : null, format: "int" },
  ];
  const subsetRows: Cell[][] = SUBSETS.map(([name, keep]) => {
    const rs = records.filter(keep);
    const tasks = new Set(rs.map(taskOf));
    return [
      name,
      tasks.size,
      groupBy(rs, (r) => r.taskId).size,
      suiteBalancedPass(rs, 1),
      suiteBalancedPass(rs, 2),
    ];
  });
  const suiteRows: Cell[][] = [...groupBy(records, suiteOf).entries()].map(([suite, rs]) => [
    suite,
    ...SUBSETS.flatMap(([, keep]) => {
      const sub = rs.filter(keep);
      return sub.length ? [suiteBalancedPass(sub, 1), suiteBalancedPass(sub, 2)] : [null, null];
    }),
  ]);
  const typeRows: Cell[][] = [
    ...groupBy(records, (r) => `${suiteOf(r)}-${r.tags.type}`).entries(),
  ].map(([type, rs]) => [
    type,
    new Set(rs.map(taskOf)).size,
    suiteBalancedPass(rs, 1),
    suiteBalancedPass(rs, 2),
  ]);
  const failed = records.filter((r) => r.status !== "success");
  const codeRows: Cell[][] = [...groupBy(failed, (r) => r.category ?? "none").entries()]
    .map(([code, rs]) => [
      code,
      FAILURE_CODES[code as keyof typeof FAILURE_CODES] ?? "",
      rs.length,
      rs.length / failed.length,
    ])
    .sort((a, b) => (b[2] as number) - (a[2] as number));
  const suiteTable: ReportTable = {
    title: "Suites by subset (Table 6)",
    columns: ["suite", ...SUBSETS.flatMap(([n]) => [`${n} P@1`, `${n} P@2`])],
    rows: suiteRows,
    formats: ["text", ...SUBSETS.flatMap(() => ["rate", "rate"] as const)],
  };
  const tables: ReportTable[] = [
    {
      title: "EP subsets (Table 5)",
      caption: "Suite-balanced Pass@1 / Pass@2 over the implemented tasks of each subset",
      columns: ["subset", "tasks", "conditions", "Pass@1", "Pass@2"],
      rows: subsetRows,
      formats: ["text", "int", "int", "rate", "rate"],
    },
    suiteTable,
    {
      title: "Task types",
      columns: ["type", "tasks", "Pass@1", "Pass@2"],
      rows: typeRows,
      formats: ["text", "int", "rate", "rate"],
    },
    {
      title: "Failure categories (Table 19)",
      columns: ["code", "meaning", "attempts", "share"],
      rows: codeRows,
      formats: ["text", "text", "int", "rate"],
    },
  ];
  return {
    suite: "playground",
    title: "Embodied Playground (EP-100, Launch and Tower implemented)",
    episodes: records.length,
    headlines,
    tables,
    figures: [passAtKBySuite(suiteTable)],
    notes: [
      "Pass@k per condition uses its first k valid attempts (epochs), stopping at the first success; invalid attempts consume none (§6.1).",
      "Subsets are restricted to implemented tasks (Launch 34, Tower Plan 5 + Physics 8); each present suite weighs equally.",
    ],
  };
}

/**
 * Reference agents: `oracle` (privileged: reads the options' hidden roles and always takes the
 * success path, so it solves every task in exactly the shortest-path number of steps) and
 * `greedy-lexical` (honest and scripted: picks the option sharing the most distinguishing content
 * words with the task description, earliest letter on ties, never repeating an option that just
 * failed). The random baseline is the built-in `random`
 * agent, which draws a letter uniformly from the select_option schema.
 */
import {
  type Agent,
  type Decision,
  defineAgent,
  LonghaulError,
  NO_OPTIONS,
  type Observation,
} from "../../core/index.ts";
import { type ContinualLatent, type ContinualView, FAILED } from "./environment.ts";

const select = (option: string, reason: string): Decision => ({
  action: { kind: "tool", calls: [{ tool: "select_option", args: { option, reason } }] },
  note: reason,
});

/** The privileged oracle: the success-path option at every step. */
export const oracleAgent = defineAgent({
  name: "oracle",
  description: "privileged: reads the options' hidden roles and takes the success path",
  privileged: true,
  options: NO_OPTIONS,
  create: (): Agent => ({
    id: "oracle",
    privileged: true,
    start(_card, context) {
      const latent = context.privileged?.latent;
      if (!latent) throw new LonghaulError("RUNTIME", "the oracle agent needs privileged access");
      return {
        async act() {
          const snapshot = latent() as unknown as ContinualLatent;
          const best =
            snapshot.choices.find((c) => c.role === "success_path") ??
            snapshot.choices.find((c) => c.role === "valid_detour") ??
            snapshot.choices[0];
          return select(best?.label ?? "A", "on a shortest path to the goal");
        },
      };
    },
  }),
});

/** Words that carry no content (articles, connectives, pronouns). */
const STOPWORDS = new Set(
  "a an the and or but so to of in on at by for with from into onto over up down out off as is are be it its this that these those you your i me my we our they them then than now right away while at this point all any some can not no do does before after when where what which who how there here more most very just still get go".split(
    " ",
  ),
);

/** Content words of a text, lower-cased, with a plural s dropped. */
export function contentWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z']+/g) ?? [])
      .map((w) => w.replace(/'s$/, "").replace(/(?<=[a-z]{3})s$/, ""))
      .filter((w) => w.length > 1 && !STOPWORDS.has(w)),
  );
}

/**
 * The greedy-lexical choice: the option with the most content words shared with the task
 * description, counting only words that not every option has (the scenario's purpose clause
 * is in all of them); earliest letter on ties.
 */
export function lexicalChoice(
  view: ContinualView,
  exclude: ReadonlySet<string> = new Set(),
): { label: string; overlap: number } {
  const task = contentWords(view.task);
  const words = view.choices.map((c) => contentWords(c.text));
  const common = new Set([...(words[0] ?? [])].filter((w) => words.every((ws) => ws.has(w))));
  let best = { label: view.choices[0]?.label ?? "A", overlap: -1 };
  view.choices.forEach((choice, i) => {
    if (exclude.has(choice.text)) return;
    let overlap = 0;
    for (const w of words[i] ?? []) if (task.has(w) && !common.has(w)) overlap++;
    if (overlap > best.overlap) best = { label: choice.label, overlap };
  });
  return best;
}

/** The scripted lexical baseline. */
export const greedyLexicalAgent = defineAgent({
  name: "greedy-lexical",
  description: "scripted baseline: the option sharing the most content words with the task",
  options: NO_OPTIONS,
  create: (): Agent => ({
    id: "greedy-lexical",
    start: () => {
      // Options that just failed, until a selection is accepted (the state is then new).
      const failed = new Set<string>();
      let last: string | null = null;
      return {
        async act(observation: Observation) {
          const view = observation.view as unknown as ContinualView;
          if (view.previous === FAILED && last) failed.add(last);
          else failed.clear();
          const { label, overlap } = lexicalChoice(view, failed);
          last = view.choices.find((c) => c.label === label)?.text ?? null;
          return select(label, `shares ${overlap} content words with the task`);
        },
      };
    },
  }),
});

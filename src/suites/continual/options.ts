/**
 * Option banks (paper §3.4, appendix B): at every state four options A-D whose hidden roles
 * are the success path (an action on a shortest path to the goal), a valid detour (executable,
 * but not shortening the way) or invalid (the engine rejects it here: choosing it uses a step
 * and changes nothing). Exactly one option is on the success path; zero to two are detours;
 * the rest are invalid, preferring the objects the success option names so invalid options are
 * tempting rather than absurd. Sentences follow the anti-leak rules (see phrasing.ts and
 * docs/continual.md): one length target per state, no verb repeated within a state, and the
 * success option's verb never repeats the previous path state's.
 */
import { Rng } from "../../core/index.ts";
import { successorState, WorldState } from "../../world/index.ts";
import { edgesOf, type Grounding, stateAt, stateKey, type TaskGraph } from "./graph.ts";
import { type OptionSentence, optionSentence } from "./phrasing.ts";

/** The hidden role of an option (the authors' Stage 2 names). */
export type Role = "success_path" | "valid_detour" | "invalid";
export const ROLES: Role[] = ["success_path", "valid_detour", "invalid"];

/** Option labels. */
export const LABELS = ["A", "B", "C", "D"] as const;

/** One option at a state, with its hidden fields. */
export interface Choice {
  label: string;
  text: string;
  role: Role;
  /** The authors' action id. */
  action: string;
  /** The state a valid option leads to (null: invalid, the state stays). */
  to: number | null;
  /** The sentence's opening verb and style (for the mechanical anti-leak checks). */
  verb: string;
  style: OptionSentence["style"];
}

/** How many detours a state shows: none, one or two (weights 3:4:3). */
function detourCount(rng: Rng): number {
  const x = rng.next();
  return x < 0.3 ? 0 : x < 0.7 ? 1 : 2;
}

/** Options of one task's graph, generated on first use and kept. */
export class OptionBank {
  private readonly cache = new Map<number, Choice[]>();
  private readonly onPath = new Map<number, number>();

  constructor(
    private readonly graph: TaskGraph,
    private readonly seed: string,
  ) {
    graph.path.forEach((s, i) => {
      if (!this.onPath.has(s)) this.onPath.set(s, i);
    });
  }

  /** The four options at state `s` (none at a goal state). */
  at(s: number): Choice[] {
    const known = this.cache.get(s);
    if (known) return known;
    const position = this.onPath.get(s);
    if (position !== undefined) {
      // Path states are generated in order so consecutive success options vary their verbs.
      let previous: string | undefined;
      for (let i = 0; i <= position; i++) {
        const state = this.graph.path[i] as number;
        const choices = this.cache.get(state) ?? this.generate(state, previous);
        this.cache.set(state, choices);
        previous = choices.find((c) => c.role === "success_path")?.verb;
      }
      return this.cache.get(s) as Choice[];
    }
    const choices = this.generate(s, undefined);
    this.cache.set(s, choices);
    return choices;
  }

  /** The released bank: the path states and every state one action off the path. */
  released(): number[] {
    const states = new Set<number>();
    for (const s of this.graph.path) {
      states.add(s);
      for (const [, to] of edgesOf(this.graph, s)) states.add(to);
    }
    return [...states].sort((a, b) => a - b).filter((s) => (this.graph.dist[s] as number) > 0);
  }

  private generate(s: number, previousVerb: string | undefined): Choice[] {
    const g = this.graph;
    const d = g.dist[s] as number;
    if (d <= 0) return [];
    const state = stateAt(g, s);
    const rng = new Rng(this.seed, `options/${g.def.id}/${stateKey(state)}`);
    const edges = edgesOf(g, s);
    const optimal = edges.filter(([, to]) => g.dist[to] === d - 1);
    const position = this.onPath.get(s);
    const success =
      position !== undefined
        ? (edges.find(
            ([a, to]) => a === g.pathActions[position] && to === g.path[position + 1],
          ) as [number, number])
        : optimal.reduce((best, e) => (rankOf(g, e) < rankOf(g, best) ? e : best));
    const optimalActions = new Set(optimal.map(([a]) => a));
    const detourPool = rng
      .shuffle(edges.filter(([a]) => !optimalActions.has(a)))
      .sort(
        (x, y) =>
          relevance(g.groundings[x[0]] as Grounding) - relevance(g.groundings[y[0]] as Grounding),
      );
    const executable = new Set(edges.map(([a]) => a));
    const successObjects = new Set((g.groundings[success[0]] as Grounding).ids);
    const invalidPool = rng
      .shuffle([
        ...g.groundings.filter((_, a) => !executable.has(a)),
        ...g.decoys.filter((x) => !(successorState(state, x.schema, x.args) instanceof WorldState)),
      ])
      .map((x) => ({ x, tier: tempting(x, successObjects) }))
      .sort((a, b) => a.tier - b.tier)
      .map(({ x }) => x);
    const detours = detourPool.slice(0, Math.min(detourCount(rng), detourPool.length));
    const invalid = invalidPool.slice(0, 3 - detours.length);
    while (detours.length + invalid.length < 3 && detours.length < detourPool.length)
      detours.push(detourPool[detours.length] as [number, number]);
    const picked: { grounding: Grounding; role: Role; to: number | null }[] = [
      { grounding: g.groundings[success[0]] as Grounding, role: "success_path", to: success[1] },
      ...detours.map(([a, to]) => ({
        grounding: g.groundings[a] as Grounding,
        role: "valid_detour" as Role,
        to,
      })),
      ...invalid.map((grounding) => ({ grounding, role: "invalid" as Role, to: null })),
    ];
    // Sentences: one length target per state, distinct verbs, the success verb new on the path.
    const targetWords = rng.range(12, 19);
    const used = new Set<string>();
    const sentences = new Map<number, OptionSentence>();
    for (const i of rng.shuffle(picked.map((_, i) => i))) {
      const p = picked[i] as (typeof picked)[number];
      const avoid = new Set(used);
      if (p.role === "success_path" && previousVerb) avoid.add(previousVerb);
      const sentence = optionSentence(g.def, p.grounding.name, p.grounding.ids, rng, {
        targetWords,
        avoidVerbs: avoid,
      });
      used.add(sentence.verb);
      sentences.set(i, sentence);
    }
    return rng
      .shuffle(picked.map((p, i) => ({ p, sentence: sentences.get(i) as OptionSentence })))
      .map(({ p, sentence }, i) => ({
        label: LABELS[i] as string,
        text: sentence.text,
        role: p.role,
        action: p.grounding.id,
        to: p.to,
        verb: sentence.verb,
        style: sentence.style,
      }));
  }
}

const rankOf = (g: TaskGraph, edge: [number, number]) => (g.groundings[edge[0]] as Grounding).rank;

/** Detours on the task's goal objects come before detours on distractors. */
const relevance = (x: Grounding) => (x.rank >= 99 * 4 ? 1 : 0);

/**
 * Invalid options operating the success option's objects first (Table 3: "switch off the
 * light" before the agent stands next to it), then anything else on those objects, then goal
 * objects, then the rest.
 */
function tempting(x: Grounding, successObjects: Set<string>): number {
  if (x.ids.some((id) => successObjects.has(id)))
    return x.name === "look_at" || x.name === "walk_to" ? 1 : 0;
  return x.rank >= 99 * 4 ? 3 : 2;
}

/**
 * The RoboGraph compiler (§4, appendix A): family specifications + seeded source scenes ->
 * task instances I = (G_0, g, A, Λ), one baseline and six intervention conditions per scene,
 * each with its oracle data (L_o, plan, ordered action distance), scene statistics and the
 * task-state horizon of the condition's oracle rollout with its scheduled events (Definition 2).
 */
import { type CompileOptions, LonghaulError, Rng, type TaskSpec } from "../../core/index.ts";
import type {
  EventSchedule,
  Goal,
  GoalAtom,
  SingleRobotScene,
  WorldAction,
} from "../../world/index.ts";
import { explainNoPlan, World } from "../../world/index.ts";
import { builtinFamilies } from "./families.ts";
import { type FamilySpec, loadFamilyFile } from "./family-spec.ts";
import { generateScene } from "./generator.ts";
import { interventionSchedule } from "./interventions.ts";
import {
  actionDistance,
  decoyNodes,
  goalDisclosure,
  type Horizon,
  occludedNodes,
  oracleEpisode,
  oraclePlan,
} from "./oracle.ts";
import { CONDITIONS, type Condition, type Domain } from "./outcome.ts";

/** The default root seed of the published suite. */
export const DEFAULT_SEED = "robograph-v1";

/** Per-scene statistics of Table 3 / appendix A. */
export interface SceneStats {
  nodes: number;
  edges: number;
  occluded: number;
  goalPredicates: number;
  /** Goal facts naming a node hidden in G_0 (not in the agent's first view). */
  hiddenGoalFacts: number;
  /** Of those, facts already true in G_0 that say where the hidden node is (none by design). */
  revealingGoalFacts: number;
  /** Closed containers and blockers the optimal plan never opens or moves aside. */
  decoys: number;
}

/** Oracle data of a source scene: L_o and an optimal plan on G_0, and C_distance(G_0). */
export interface OracleData {
  length: number;
  plan: WorldAction[];
  distance: number;
}

/** The suite-owned payload of a RoboGraph TaskSpec. */
export interface RoboGraphPayload {
  scene: string;
  title: string;
  task: string;
  domain: Domain;
  condition: Condition;
  graph: SingleRobotScene;
  goal: Goal;
  events: EventSchedule;
  oracle: OracleData;
  stats: SceneStats;
  /** TSH (H_maintain, H_explore, H_update) of this condition's oracle rollout τ*. */
  horizon: Horizon;
  /**
   * The nodes hidden in G_0 that the optimal plan depends on (spatial dependencies of the
   * baseline rollout): SEG's denominator, to which the environment adds what events hide.
   */
  spatialDependencies: string[];
}

/** Options of robograph's compile(): the seed and an optional user family file. */
export interface RoboGraphCompileOptions extends CompileOptions {
  /** A YAML/JSON family file compiled instead of the built-in families. */
  familyFile?: string;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** The readable scene id, e.g. `cosmetics-t03`. */
export function sceneId(family: FamilySpec, index: number): string {
  return `${family.id}-${family.domain[0]}${pad2(index + 1)}`;
}

/** Compile every scene of the given families under a root seed. */
export function compileFamilies(
  families: readonly FamilySpec[],
  seed: string,
): TaskSpec<RoboGraphPayload>[] {
  const ids = new Set<string>();
  const out: TaskSpec<RoboGraphPayload>[] = [];
  for (const family of families) {
    for (let i = 0; i < family.scenes; i++) {
      const id = sceneId(family, i);
      if (ids.has(id)) throw new LonghaulError("INVALID_INPUT", `two families produce scene ${id}`);
      ids.add(id);
      out.push(...compileScene(family, i, seed));
    }
  }
  return out;
}

function compileScene(
  family: FamilySpec,
  index: number,
  seed: string,
): TaskSpec<RoboGraphPayload>[] {
  const scene = sceneId(family, index);
  const generated = generateScene(family, new Rng(seed, `${family.id}/${family.domain}/${index}`));
  const world = new World(generated.scene, generated.goal);
  const plan = oraclePlan(world);
  if (!plan) throw unsolvable(scene, generated.scene, world);
  const disclosure = goalDisclosure(generated.scene, generated.goal);
  const stats: SceneStats = {
    nodes: generated.scene.nodes.length,
    edges: generated.scene.edges.length,
    occluded: occludedNodes(generated.scene, generated.goal).length,
    goalPredicates: generated.goal.all.length,
    hiddenGoalFacts: disclosure.hidden,
    revealingGoalFacts: disclosure.revealing,
    decoys: decoyNodes(generated.scene, plan).length,
  };
  const oracle: OracleData = { length: plan.length, plan, distance: actionDistance(world) };
  const base = oracleEpisode(generated.scene, generated.goal, []);
  return CONDITIONS.map((condition) => {
    const events = interventionSchedule(condition, generated.scene, generated.roles);
    const episode =
      events.length === 0 ? base : oracleEpisode(generated.scene, generated.goal, events);
    return {
      suite: "robograph",
      id: `${scene}/${condition}`,
      family: family.id,
      tags: { scene, condition, domain: family.domain },
      seed: `${seed}:${scene}`,
      payload: {
        scene,
        title: family.title,
        task: family.task,
        domain: family.domain,
        condition,
        graph: generated.scene,
        goal: generated.goal,
        events,
        oracle,
        stats,
        horizon: episode.horizon,
        spatialDependencies: base.spatial,
      },
    };
  });
}

/**
 * Why a generated scene has no plan, as an INVALID_INPUT error a family author can act on: the
 * goal facts no plan reaches (in goal order, each together with the earlier ones that can be),
 * or the planner's expansion bound when it was hit first.
 */
function unsolvable(scene: string, graph: SingleRobotScene, world: World): LonghaulError {
  const why = explainNoPlan(world.latentState(), world.goalAtoms());
  const name = (id: string) => graph.nodes.find((n) => n.id === id)?.name ?? id;
  const facts = why.unreachable.map((atom) => factText(atom, name));
  const parts = [`the family has no solvable goal in scene ${scene}`];
  if (facts.length > 0) {
    parts.push(
      `no plan reaches ${facts.length === 1 ? "this goal fact" : "these goal facts"} (each together with the earlier ones that can be reached): ${facts.join("; ")}`,
    );
  }
  if (why.bound !== undefined) {
    parts.push(
      `the planner stopped at its bound of ${why.bound.toLocaleString("en")} expanded states before deciding; make the scene smaller (fewer objects, containers or rooms)`,
    );
  }
  if (facts.length === 0 && why.bound === undefined) parts.push("the planner found no reason");
  return new LonghaulError("INVALID_INPUT", parts.join(": "));
}

/** A goal fact in words, with node names: "red sweater INSIDE washing machine". */
function factText(atom: GoalAtom, name: (id: string) => string): string {
  switch (atom.pred) {
    case "ON":
    case "INSIDE":
      return `${name(atom.object)} ${atom.pred} ${name(atom.target)}`;
    case "ASSEMBLED":
      return `${name(atom.part)} ASSEMBLED with ${name(atom.target)}`;
    case "COUNT":
      return `${atom.op.replace("_", " ")} ${atom.n} ${atom.category} ${atom.rel} ${name(atom.target)}`;
    case "AT":
      return `${name(atom.node)} AT ${name(atom.room)}`;
    case "ATTR":
      return `${name(atom.node)} ${atom.attr}=${atom.value}`;
    default:
      return `${name(atom.node)} ${atom.pred}`;
  }
}

const cache = new Map<string, TaskSpec<RoboGraphPayload>[]>();

/** Compile the suite (built-in families, or a family file); memoised per options. */
export function compileSuite(options: RoboGraphCompileOptions = {}): TaskSpec<RoboGraphPayload>[] {
  const seed = options.seed ?? DEFAULT_SEED;
  const families = options.familyFile ? [loadFamilyFile(options.familyFile)] : builtinFamilies();
  const key = JSON.stringify([seed, families]);
  let specs = cache.get(key);
  if (!specs) {
    specs = compileFamilies(families, seed);
    cache.set(key, specs);
  }
  return specs;
}

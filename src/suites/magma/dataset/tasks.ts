/**
 * Training tasks of the MAGMA dataset (§4.4): "for each task, state-valid user requests and
 * their parameters are sampled from the current symbolic state, and scenario-specific programs
 * synthesize an expert trace ... The generation procedure keeps sampling requests until the
 * number of decisions required to complete the task exceeds 40." A task is one family's
 * scenario program run on the training seed stream (never the evaluation's), with an optional
 * mission update and/or interruption plan, no faults (no stochastic failures, no missed
 * detections), and the expert's trace recorded decision by decision.
 */
import {
  type Action,
  DEFAULT_ACCESS,
  Rng,
  type TaskCard,
  type TaskSpec,
  type TraceStep,
} from "../../../core/index.ts";
import { inCandidates, muCandidates } from "../compiler.ts";
import { MagmaEnvironment, type MagmaLatent } from "../environment.ts";
import { Expert } from "../expert.ts";
import { FAMILIES } from "../families/index.ts";
import type { DraftStage, Mission, MissionBuilder, Phrasing, Plan } from "../mission-builder.ts";
import { MissionBuilder as Builder } from "../mission-builder.ts";
import type { MagmaOutcome } from "../outcome.ts";
import { Renamer } from "../realize.ts";
import { TABLE2 } from "../table2.ts";
import { BUCKETS, type Condition, type MagmaPayload, type Stage } from "../types.ts";

/** The 11 training families: Table 2 without the held-out (HO) family, Packaging. */
export const TRAINING_FAMILIES: readonly string[] = TABLE2.filter((r) => r.ho === 0).map(
  (r) => r.family,
);

/** §4.4: requests are sampled until the expert needs more than this many decisions. */
export const MIN_DECISIONS = 40;

/**
 * The first target horizon tried (successful skills), and the least it grows after a mission
 * that needed too few decisions; it grows by the missing share of decisions when that is more
 * (decisions grow about linearly with the horizon), so a task takes few plays.
 */
const FIRST_TARGET = 30;
const MIN_STEP = 2;
const MAX_ATTEMPTS = 40;
/** A runaway scenario program is a bug, not a long task. */
const MAX_TRACE = 2000;

/** A training task with its recorded expert trace. */
export interface TrainingTask {
  /** `train-<index>-<family>`. */
  id: string;
  index: number;
  family: string;
  /** The perturbations of its plan: CE (none), MU, IN or CO (MU and IN, never faults). */
  condition: Condition;
  spec: TaskSpec<MagmaPayload>;
  card: TaskCard;
  /** Every decision of the expert, in order; each has an action. */
  steps: (TraceStep & { action: Action })[];
  /** The user's words of each stage that speaks, with the phrasings it was chosen from. */
  phrasings: ReadonlyMap<string, Phrasing>;
  /** Attempts (target horizons) rejected before this one, by reason. */
  rejected: Record<string, number>;
}

/** What a plan choice needs: the family module's builder hooks and the options it has. */
function planOptions(
  family: string,
  clean: Mission,
  withRules: boolean,
  rng: Rng,
): { condition: Condition; plan: Plan }[] {
  const perturbations = TABLE2.find((r) => r.family === family)?.perturbations ?? [];
  const mu = withRules && perturbations.includes("MU") ? muCandidates(clean) : [];
  const inter = perturbations.includes("IN")
    ? inCandidates(clean, rng.chance(0.5) ? "stop" : "after")
    : [];
  const out: { condition: Condition; plan: Plan }[] = [{ condition: "CE", plan: {} }];
  const m = mu.length ? rng.pick(mu) : undefined;
  const i = inter.length ? rng.pick(inter) : undefined;
  if (m) out.push({ condition: "MU", plan: { mu: m } });
  if (i) out.push({ condition: "IN", plan: { in: i } });
  if (m && i) out.push({ condition: "CO", plan: { mu: m, in: i } });
  return out;
}

/** Build the training task number `index` under the root `seed`. */
export function trainingTask(seed: string, index: number): TrainingTask {
  const familyId = TRAINING_FAMILIES[index % TRAINING_FAMILIES.length] as string;
  const module = FAMILIES[familyId];
  if (!module) throw new Error(`no scenario program for ${familyId}`);
  const family = module.family;
  const id = `train-${String(index).padStart(6, "0")}-${familyId}`;
  // The training stream: "train/<index>" under the training seed; the evaluation compiler
  // draws from "<spec id>/<attempt>" under its own seed.
  const root = new Rng(seed, `train/${index}`);
  const hasMu = TABLE2.find((r) => r.family === familyId)?.perturbations.includes("MU") ?? false;
  const withRules = hasMu && root.chance(0.75);
  const choice = root.derive("choice");
  const phrase = root.derive("phrasing");
  const rejected: Record<string, number> = {};
  const reject = (why: string) => {
    rejected[why] = (rejected[why] ?? 0) + 1;
  };
  let target = FIRST_TARGET;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const build = (plan: Plan): Mission => {
      const b: MissionBuilder = new Builder(
        family,
        root.derive("mission"),
        target,
        withRules,
        "ID",
        plan,
      );
      family.generate(b);
      return b.mission();
    };
    const clean = build({});
    // Decisions of a play that needed too few (the next target grows by the missing share).
    let short = 0;
    if (clean.problem) {
      reject("mission problem");
      target += MIN_STEP;
      continue;
    }
    const draw = choice.derive(`${attempt}`);
    const options = planOptions(familyId, clean, withRules, draw);
    const picked = draw.pick(options);
    const attempts = picked.condition === "CE" ? [picked] : [picked, options[0] as typeof picked];
    for (const { condition, plan } of attempts) {
      const mission = condition === "CE" ? clean : build(plan);
      if (mission.problem) {
        reject("plan does not apply");
        continue;
      }
      const task = played(
        seed,
        index,
        id,
        familyId,
        condition,
        mission,
        phrase.derive(`${attempt}/${condition}`),
      );
      if (!task.ok) {
        reject(`${task.why} (${condition})`);
        continue;
      }
      const decisions = task.value.steps.length;
      if (decisions <= MIN_DECISIONS) {
        reject(`${MIN_DECISIONS} decisions or fewer`);
        short = decisions;
        break;
      }
      return { ...task.value, rejected };
    }
    // Without a short play (plans that do not apply, expert failures) the target grows by the
    // least step, so the next attempt draws other requests.
    target =
      short > 0
        ? Math.max(target + MIN_STEP, Math.ceil((target * (MIN_DECISIONS + 1)) / short))
        : target + MIN_STEP;
  }
  throw new Error(`${id}: no task above ${MIN_DECISIONS} decisions after ${MAX_ATTEMPTS} targets`);
}

/** Realize a mission's stages with a seeded phrasing per stage and play it with the expert. */
function played(
  seed: string,
  index: number,
  id: string,
  familyId: string,
  condition: Condition,
  mission: Mission,
  /** Draws each speaking stage's phrasing, in stage order. */
  phrase: Rng,
): { ok: true; value: Omit<TrainingTask, "rejected"> } | { ok: false; why: string } {
  const family = (FAMILIES[familyId] as (typeof FAMILIES)[string]).family;
  const phrasings = new Map<string, Phrasing>();
  const stages = mission.stages.map((draft: DraftStage): Stage => {
    const { say, ...stage } = draft;
    if (!say) return stage;
    const text = say[phrase.int(3)] as string;
    phrasings.set(text, say);
    return { ...stage, instruction: text };
  });
  const payload: MagmaPayload = {
    family: familyId,
    spec: id,
    condition,
    realization: 0,
    bucket: "short",
    horizon: 0,
    track: "ID",
    robots: family.robots,
    scene: mission.scene,
    stages,
    interventions: mission.interventions,
    control: "",
    names: {},
  };
  const spec: TaskSpec<MagmaPayload> = {
    suite: "magma",
    id,
    family: familyId,
    tags: { condition, training: 1 },
    seed: `${seed}/train/${index}`,
    payload,
  };
  const env = new MagmaEnvironment(spec, family, DEFAULT_ACCESS);
  const expert = new Expert(family, payload, new Renamer({}));
  const card = env.describe();
  let observation = env.reset();
  const steps: TrainingTask["steps"] = [];
  for (let i = 0; i < MAX_TRACE; i++) {
    const action = expert.decide(env.latent() as unknown as MagmaLatent);
    steps.push({ step: i, observation, action });
    const result = env.stepSync(action);
    observation = result.observation;
    if (result.terminated) break;
  }
  const outcome = env.outcome().data as unknown as MagmaOutcome;
  if (!outcome.success) return { ok: false, why: "the expert fails its mission" };
  const horizon = env.measurements().log.length;
  payload.horizon = horizon;
  payload.bucket = (BUCKETS.find((b) => horizon <= b.max) ?? BUCKETS[4]).id;
  return {
    ok: true,
    value: { id, index, family: familyId, condition, spec, card, steps, phrasings },
  };
}

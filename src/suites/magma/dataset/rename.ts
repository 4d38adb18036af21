/**
 * The renaming augmentation (§4.4: "consistent renaming of entities, robots, tools, and
 * parameters"): one map renames every item, place, class, robot and skill token (the family's
 * realization vocabulary, as the evaluation's semantic realizations do) and every skill
 * parameter (a synonym table), in the whole row: the task card, every observation of the
 * history, the current one and the target decision.
 */
import type {
  Action,
  Json,
  Observation,
  TaskCard,
  ToolSpec,
  TraceStep,
} from "../../../core/index.ts";
import type { Family } from "../family.ts";
import { realizationNames } from "../realize.ts";
import type { MagmaPayload } from "../types.ts";

/** A consistent renaming: tokens (ids, classes, robots, skills) and parameter names. */
export interface RenameMap {
  tokens: Readonly<Record<string, string>>;
  params: Readonly<Record<string, string>>;
}

/** Two synonyms per skill parameter of the training families (one per renaming). */
const PARAM_SYNONYMS: Readonly<Record<string, readonly [string, string]>> = {
  name: ["object_name", "item"],
  target: ["destination", "place"],
  target_area: ["zone", "area"],
  person: ["recipient", "customer"],
  team: ["group", "crew"],
  button: ["switch", "button_id"],
  detergent: ["soap", "detergent_type"],
  obj: ["item_id", "thing"],
  object: ["item_name", "article"],
  location_name: ["spot", "position"],
  hall: ["corridor", "hall_name"],
};

/** The renaming number `variant` (1 or 2) of a task's world. */
export function renameMap(family: Family, payload: MagmaPayload, variant: 1 | 2): RenameMap {
  const scene = payload.scene;
  const tokens = realizationNames(
    [
      ...scene.nodes.map((n) => n.id),
      ...scene.nodes.map((n) => n.category),
      ...scene.robots.map((r) => r.id),
      ...family.skills.map((k) => k.name),
    ],
    family.vocabulary,
    variant,
  );
  const params: Record<string, string> = {};
  for (const skill of family.skills) {
    const own = Object.keys(skill.params);
    for (const p of own) {
      const synonym = PARAM_SYNONYMS[p]?.[variant - 1] ?? `${p}_${variant === 1 ? "arg" : "value"}`;
      if (own.includes(synonym))
        throw new Error(`renaming ${skill.name}.${p}: ${synonym} is taken`);
      params[p] = synonym;
    }
  }
  return { tokens, params };
}

const WORD = /([A-Za-z0-9_]+)(=?)/g;

/** A text renamed: tokens by the map, `param=` (robot statuses) by the parameter map. */
export function renameText(text: string, map: RenameMap): string {
  return text.replace(WORD, (_, word: string, eq: string) =>
    eq ? `${map.params[word] ?? map.tokens[word] ?? word}=` : (map.tokens[word] ?? word),
  );
}

/** Every string and key of a JSON value renamed. */
export function renameJson(value: Json, map: RenameMap): Json {
  if (typeof value === "string") return renameText(value, map);
  if (Array.isArray(value)) return value.map((v) => renameJson(v, map));
  if (value && typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[renameText(k, map)] = renameJson(v, map);
    return out;
  }
  return value;
}

function renameArgs(args: Record<string, unknown>, map: RenameMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[map.params[k] ?? k] = renameJson(v as Json, map);
  return out;
}

function renameTool(tool: ToolSpec, map: RenameMap): ToolSpec {
  const parameters = { ...(tool.parameters as Record<string, unknown>) };
  const properties = parameters.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties) {
    const renamed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(properties))
      renamed[map.params[k] ?? k] =
        typeof v.description === "string"
          ? { ...v, description: renameText(v.description, map) }
          : v;
    parameters.properties = renamed;
  }
  if (Array.isArray(parameters.required))
    parameters.required = (parameters.required as string[]).map((k) => map.params[k] ?? k);
  return {
    ...tool,
    name: renameText(tool.name, map),
    description: renameText(tool.description, map),
    parameters,
  };
}

/** The task card as the renamed world describes it. */
export function renameCard(card: TaskCard, map: RenameMap): TaskCard {
  return {
    ...card,
    instructions: renameText(card.instructions, map),
    rules: card.rules.map((r) => renameText(r, map)),
    tools: card.tools.map((t) => renameTool(t, map)),
  };
}

/** An observation of the renamed world. */
export function renameObservation(observation: Observation, map: RenameMap): Observation {
  return {
    ...observation,
    events: observation.events.map((e) => ({
      ...e,
      ...(e.text !== undefined ? { text: renameText(e.text, map) } : {}),
      ...(e.robot !== undefined ? { robot: renameText(e.robot, map) } : {}),
      ...(e.data !== undefined ? { data: renameJson(e.data as Json, map) } : {}),
    })),
    ...(observation.view !== undefined ? { view: renameJson(observation.view as Json, map) } : {}),
  };
}

/** A decision of the renamed world. */
export function renameAction(action: Action, map: RenameMap): Action {
  switch (action.kind) {
    case "say":
      return { ...action, text: renameText(action.text, map) };
    case "tool":
      return {
        ...action,
        calls: action.calls.map((c) => ({
          ...c,
          tool: renameText(c.tool, map),
          args: renameArgs(c.args, map),
          ...(c.robot !== undefined ? { robot: renameText(c.robot, map) } : {}),
        })),
      };
    default:
      return action;
  }
}

/** A logged step of the renamed world. */
export function renameStep<S extends TraceStep>(step: S, map: RenameMap): S {
  return {
    ...step,
    observation: renameObservation(step.observation, map),
    ...(step.action ? { action: renameAction(step.action, map) } : {}),
  };
}

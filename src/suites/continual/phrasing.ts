/**
 * Natural language: task descriptions (the paper's Stage 1 rewrite: a household scenario with
 * functional references, no checklist of ids), option sentences (Stages 2 and 3: one sentence
 * of 10-25 words naming the object and tying it to the scenario, styles mixed so the wording
 * does not give away the step) and the scene description that stands in for the simulator's
 * first-person image.
 */
import type { Rng } from "../../core/index.ts";
import type { ActionName } from "./catalog.ts";
import { KINDS, kindOf, ROOMS } from "./household.ts";
import type { AtomicGoal, Height, TaskDef } from "./task.ts";

/** A household scenario: the opening of a task description and purposes options tie to. */
interface Scenario {
  intro: string;
  /** Short purpose clauses, each starting with its connective ("before ...", "so ..."). */
  purposes: string[];
}

const SCENARIOS: Record<string, Record<string, Scenario>> = {
  living_room: {
    movie: {
      intro: "I'm about to watch a movie in the living room.",
      purposes: [
        "for the movie",
        "before the film starts",
        "so movie night goes smoothly",
        "to get the room ready for the film",
        "so nothing distracts from the screen",
      ],
    },
    guest: {
      intro: "A guest is arriving in a few minutes, so the living room needs to look presentable.",
      purposes: [
        "before the guest arrives",
        "so the room feels welcoming",
        "to get ready for the visit",
        "so the place looks cared for",
      ],
    },
    evening: {
      intro: "It's a quiet evening at home and the living room should feel relaxed.",
      purposes: [
        "for a calm evening",
        "so the evening stays relaxed",
        "to settle the room down",
        "before curling up on the sofa",
      ],
    },
  },
  bedroom: {
    bedtime: {
      intro: "I'm done for the night and heading to bed.",
      purposes: [
        "before bed",
        "so the room can rest",
        "for a good night's sleep",
        "to wind down for the night",
        "so everything is ready for tomorrow",
      ],
    },
    morning: {
      intro: "It's early morning and I'm getting the bedroom ready for the day.",
      purposes: [
        "to start the day",
        "before leaving the room",
        "so the morning runs smoothly",
        "for a fresh start",
      ],
    },
    reading: {
      intro: "I have an hour of reading ahead of me in the bedroom.",
      purposes: [
        "for the reading session",
        "so reading is comfortable",
        "before settling in with a book",
        "to make the corner cozy",
      ],
    },
  },
  kitchen: {
    breakfast: {
      intro: "Breakfast is about to happen in the kitchen.",
      purposes: [
        "for breakfast",
        "before breakfast is served",
        "so the meal comes together",
        "to get the morning meal going",
      ],
    },
    cleanup: {
      intro: "Dinner is over and the kitchen needs a reset.",
      purposes: [
        "to reset the kitchen",
        "so the counters end up clear",
        "before calling it a night",
        "as part of the cleanup",
      ],
    },
    tea: {
      intro: "I'd like to make some tea and tidy the kitchen while it brews.",
      purposes: [
        "while the tea brews",
        "for the tea break",
        "so the kitchen stays tidy",
        "before the water is ready",
      ],
    },
  },
  study: {
    work: {
      intro: "I'm starting a long work session in the study.",
      purposes: [
        "for the work session",
        "so I can focus",
        "before getting to work",
        "to set up the workspace",
      ],
    },
    wrapup: {
      intro: "Work is done for today and the study should be wound down.",
      purposes: [
        "to close out the day",
        "so the desk is left in order",
        "before leaving the study",
        "to shut things down properly",
      ],
    },
  },
  bathroom: {
    shower: {
      intro: "I'm about to take a shower and want the bathroom set up.",
      purposes: [
        "before the shower",
        "so the shower is comfortable",
        "to get the bathroom ready",
        "for a warm shower",
      ],
    },
    tidy: {
      intro: "Visitors will use the bathroom soon, so it needs a quick tidy.",
      purposes: [
        "before the visitors come",
        "so the bathroom looks neat",
        "as part of the tidy-up",
        "to freshen the room",
      ],
    },
  },
  dining_room: {
    dinner: {
      intro: "Dinner guests are about to sit down in the dining room.",
      purposes: [
        "for the dinner guests",
        "before everyone sits down",
        "so dinner starts well",
        "to set the mood for dinner",
      ],
    },
    birthday: {
      intro: "It's a small birthday celebration in the dining room.",
      purposes: [
        "for the celebration",
        "before the candles come out",
        "so the party goes smoothly",
        "to make the table festive",
      ],
    },
    clearing: {
      intro: "Dinner has finished and the dining room needs clearing.",
      purposes: [
        "to clear up after dinner",
        "so the table ends up tidy",
        "before the guests leave",
        "as the evening winds down",
      ],
    },
  },
};

/** A scenario of a room, seeded. */
export function scenarioFor(room: string, rng: Rng): string {
  return rng.pick(Object.keys(SCENARIOS[room] ?? {}));
}

function scenario(def: Pick<TaskDef, "room" | "scenario">): Scenario {
  const found = SCENARIOS[def.room]?.[def.scenario];
  if (!found) throw new Error(`no scenario ${def.scenario} for ${def.room}`);
  return found;
}

const kindOfObject = (id: string) => kindOf(id);

/** The object's everyday name. */
export function nameOf(id: string): string {
  return KINDS[id] ? (KINDS[id]?.name as string) : id.replace(/_/g, " ");
}

/** A functional reference for a task description (Stage 1 rule 3), seeded. */
function refOf(id: string, rng: Rng): string {
  const kind = kindOfObject(id);
  return rng.chance(0.3) ? kind.name : rng.pick(kind.refs);
}

const the = (phrase: string) => (/^(your|the)\b/.test(phrase) ? phrase : `the ${phrase}`);

/** How one atomic goal reads in a task description (its pick is folded into its use). */
function goalPhrase(goal: AtomicGoal, held: boolean, rng: Rng): string {
  const r = the(refOf(goal.object, rng));
  const t = goal.target ? the(refOf(goal.target, rng)) : "";
  const inHand = held ? " in your hand" : "";
  const pick = (options: string[]) => rng.pick(options);
  switch (goal.action) {
    case "switch_on":
      return pick([`turn on ${r}`, `get ${r} going`, `switch ${r} on`]);
    case "switch_off":
      return pick([`turn off ${r}`, `shut off ${r}`, `switch ${r} off`]);
    case "open":
      return pick([`open up ${r}`, `get ${r} open`, `open ${r}`]);
    case "close":
      return pick([`shut ${r}`, `close ${r}`, `close up ${r}`]);
    case "plug_in":
      return pick([`plug in ${r}`, `get ${r} connected`]);
    case "unplug":
      return pick([`unplug ${r}`, `disconnect ${r}`]);
    case "turn":
      return (kindOfObject(goal.object).turnPhrase ?? "turn {ref}").replace(
        "{ref}",
        r.replace(/^the /, ""),
      );
    case "place_on":
      return pick([`put ${r}${inHand} on ${t}`, `set ${r}${inHand} down on ${t}`]);
    case "place_in":
      return pick([`put ${r}${inHand} into ${t}`, `tuck ${r}${inHand} into ${t}`]);
    case "drop":
      return pick([`toss ${r}${inHand} into ${t}`, `throw ${r}${inHand} in ${t}`]);
    case "hang":
      return `hang ${r}${inHand} on ${t}`;
    case "hand_over":
      return pick([`hand ${r}${inHand} to ${t}`, `give ${r}${inHand} to ${t}`]);
    case "pour":
      return held
        ? `pour from ${r} in your hand into ${t}`
        : pick([`fill ${t} from ${r}`, `pour some water from ${r} into ${t}`]);
    case "cut":
      return held ? `slice ${r} with the knife in your hand` : `grab ${t} and slice ${r}`;
    default:
      return `${goal.action.replace(/_/g, " ")} ${r}`;
  }
}

function joinPhrases(phrases: string[]): string {
  if (phrases.length <= 1) return phrases.join("");
  return `${phrases.slice(0, -1).join(", ")}${phrases.length > 2 ? "," : ""} and ${phrases.at(-1)}`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The task description: the scenario, then every goal in order (picks folded into uses). */
export function describeTask(def: TaskDef, rng: Rng): string {
  const sc = scenario(def);
  const phrases = def.goals
    .filter((g) => g.action !== "pick_up")
    .map((g) =>
      goalPhrase(g, def.held === g.object || (g.action === "cut" && def.held === g.target), rng),
    );
  return `${sc.intro} ${capitalize(joinPhrases(phrases))} ${rng.pick(sc.purposes)}.`;
}

/** An option sentence's form: how it opens, so mechanical checks can see the mix. */
export type OptionStyle = "direct" | "prep" | "statement";

/** One sentence template: the words before the purpose, by object and target name. */
interface Template {
  style: OptionStyle;
  /** The opening verb (or "the" for statements): what the anti-leak checks count. */
  verb: string;
  text: (o: string, t: string) => string;
}

const tpl = (style: OptionStyle, verb: string, text: Template["text"]): Template => ({
  style,
  verb,
  text,
});

/** Sentence templates per action (Stage 2/3: varied verbs, mixed styles, no phase cues). */
const TEMPLATES: Record<ActionName, Template[]> = {
  look_at: [
    tpl("direct", "look", (o) => `Look over at the ${o}`),
    tpl("direct", "glance", (o) => `Glance toward the ${o}`),
    tpl("direct", "take", (o) => `Take a look at the ${o}`),
    tpl("direct", "focus", (o) => `Focus on the ${o}`),
    tpl("direct", "turn", (o) => `Turn your attention to the ${o}`),
    tpl("direct", "shift", (o) => `Shift your focus to the ${o}`),
    tpl("prep", "get", (o) => `Get your bearings on the ${o} first`),
    tpl("prep", "find", (o) => `Find the ${o} in the room`),
    tpl("statement", "the", (o) => `The ${o} is the next thing to deal with, so face it`),
    tpl("statement", "it", (o) => `It is the ${o}'s turn, so face it`),
  ],
  walk_to: [
    tpl("direct", "head", (o) => `Head over to the ${o}`),
    tpl("direct", "walk", (o) => `Walk over to the ${o}`),
    tpl("direct", "step", (o) => `Step up to the ${o}`),
    tpl("direct", "move", (o) => `Move in close to the ${o}`),
    tpl("direct", "make", (o) => `Make your way to the ${o}`),
    tpl("prep", "get", (o) => `Get within arm's reach of the ${o}`),
    tpl("prep", "go", (o) => `Go and stand right by the ${o}`),
    tpl("statement", "the", (o) => `The ${o} is where you need to be, so walk up to it`),
  ],
  pick_up: [
    tpl("direct", "collect", (o) => `Collect the ${o} from where it sits`),
    tpl("direct", "pick", (o) => `Pick up the ${o}`),
    tpl("direct", "grab", (o) => `Grab the ${o}`),
    tpl("direct", "lift", (o) => `Lift the ${o} off its spot`),
    tpl("prep", "take", (o) => `Take the ${o} in your hand`),
    tpl("statement", "the", (o) => `The ${o} should come along with you, so pick it up`),
  ],
  place_on: [
    tpl("direct", "leave", (o, t) => `Leave the ${o} on the ${t}`),
    tpl("direct", "set", (o, t) => `Set the ${o} down on the ${t}`),
    tpl("direct", "put", (o, t) => `Put the ${o} on the ${t}`),
    tpl("direct", "rest", (o, t) => `Rest the ${o} on top of the ${t}`),
    tpl("statement", "the", (o, t) => `The ${t} is where the ${o} goes, so put it there`),
  ],
  place_in: [
    tpl("direct", "slip", (o, t) => `Slip the ${o} into the ${t}`),
    tpl("statement", "the", (o, t) => `The ${o} belongs inside the ${t}, so put it there`),
    tpl("direct", "put", (o, t) => `Put the ${o} into the ${t}`),
    tpl("direct", "place", (o, t) => `Place the ${o} inside the ${t}`),
    tpl("direct", "tuck", (o, t) => `Tuck the ${o} into the ${t}`),
  ],
  drop: [
    tpl("direct", "dump", (o, t) => `Dump the ${o} in the ${t}`),
    tpl("statement", "the", (o, t) => `The ${o} is ready for the ${t}, so drop it in`),
    tpl("direct", "toss", (o, t) => `Toss the ${o} into the ${t}`),
    tpl("direct", "throw", (o, t) => `Throw the ${o} in the ${t}`),
    tpl("direct", "drop", (o, t) => `Drop the ${o} into the ${t}`),
  ],
  hang: [
    tpl("direct", "put", (o, t) => `Put the ${o} up on the ${t}`),
    tpl("statement", "the", (o, t) => `The ${t} is where the ${o} hangs, so hang it there`),
    tpl("direct", "hang", (o, t) => `Hang the ${o} on the ${t}`),
    tpl("direct", "hook", (o, t) => `Hook the ${o} onto the ${t}`),
    tpl("direct", "drape", (o, t) => `Drape the ${o} over the ${t}`),
  ],
  hand_over: [
    tpl("direct", "offer", (o, t) => `Offer the ${o} to the ${t}`),
    tpl("statement", "the", (o, t) => `The ${t} is waiting for the ${o}, so hand it over`),
    tpl("direct", "hand", (o, t) => `Hand the ${o} to the ${t}`),
    tpl("direct", "give", (o, t) => `Give the ${o} to the ${t}`),
    tpl("direct", "pass", (o, t) => `Pass the ${o} over to the ${t}`),
  ],
  open: [
    tpl("direct", "get", (o) => `Get the ${o} open`),
    tpl("direct", "open", (o) => `Open the ${o}`),
    tpl("direct", "pull", (o) => `Pull open the ${o}`),
    tpl("direct", "swing", (o) => `Swing the ${o} open`),
    tpl("statement", "the", (o) => `The ${o} needs opening now`),
  ],
  close: [
    tpl("direct", "swing", (o) => `Swing the ${o} shut`),
    tpl("direct", "close", (o) => `Close the ${o}`),
    tpl("direct", "shut", (o) => `Shut the ${o}`),
    tpl("direct", "push", (o) => `Push the ${o} closed`),
    tpl("statement", "the", (o) => `The ${o} needs closing now`),
  ],
  switch_on: [
    tpl("direct", "switch", (o) => `Switch on the ${o}`),
    tpl("direct", "turn", (o) => `Turn on the ${o}`),
    tpl("direct", "power", (o) => `Power up the ${o}`),
    tpl("direct", "flip", (o) => `Flip the ${o} on`),
    tpl("statement", "the", (o) => `The ${o} should be switched on now`),
  ],
  switch_off: [
    tpl("direct", "switch", (o) => `Switch off the ${o}`),
    tpl("direct", "turn", (o) => `Turn off the ${o}`),
    tpl("direct", "shut", (o) => `Shut off the ${o}`),
    tpl("direct", "power", (o) => `Power down the ${o}`),
    tpl("statement", "the", (o) => `The ${o} should be switched off now`),
  ],
  plug_in: [
    tpl("direct", "hook", (o) => `Hook the ${o} up to the power`),
    tpl("statement", "the", (o) => `The ${o} should be plugged in now`),
    tpl("direct", "plug", (o) => `Plug in the ${o}`),
    tpl("direct", "connect", (o) => `Connect the ${o} to the outlet`),
    tpl("direct", "push", (o) => `Push the ${o}'s plug into the socket`),
  ],
  unplug: [
    tpl("direct", "take", (o) => `Take the ${o} off the mains`),
    tpl("statement", "the", (o) => `The ${o} should be unplugged now`),
    tpl("direct", "unplug", (o) => `Unplug the ${o}`),
    tpl("direct", "pull", (o) => `Pull the ${o}'s plug out of the socket`),
    tpl("direct", "disconnect", (o) => `Disconnect the ${o} from the outlet`),
  ],
  pour: [
    tpl("direct", "tip", (o, t) => `Tip the ${o} over the ${t} and pour`),
    tpl("statement", "the", (o, t) => `The ${t} needs filling from the ${o}`),
    tpl("direct", "pour", (o, t) => `Pour from the ${o} into the ${t}`),
    tpl("direct", "fill", (o, t) => `Fill the ${t} from the ${o}`),
    tpl("direct", "top", (o, t) => `Top up the ${t} with the ${o}`),
  ],
  cut: [
    tpl("direct", "carve", (o, t) => `Carve the ${o} with the ${t}`),
    tpl("statement", "the", (o, t) => `The ${o} needs slicing with the ${t}`),
    tpl("direct", "cut", (o, t) => `Cut the ${o} with the ${t}`),
    tpl("direct", "slice", (o, t) => `Slice the ${o} using the ${t}`),
    tpl("direct", "chop", (o, t) => `Chop the ${o} with the ${t}`),
  ],
  turn: [
    tpl("statement", "the", (o) => `The ${o} needs a turn now`),
    tpl("direct", "turn", (o) => `Turn the ${o}`),
    tpl("direct", "twist", (o) => `Twist the ${o}`),
    tpl("direct", "give", (o) => `Give the ${o} a turn`),
    tpl("direct", "rotate", (o) => `Rotate the ${o}`),
  ],
  stand_up: [
    tpl("direct", "climb", (o) => `Climb out of the ${o}`),
    tpl("direct", "get", (o) => `Get up from the ${o}`),
    tpl("direct", "stand", (o) => `Stand up from the ${o}`),
    tpl("direct", "rise", (o) => `Rise from the ${o}`),
  ],
};

/** Lead-ins before a purpose clause, to even out sentence lengths without order words. */
const LEAD_INS = [
  "",
  "without delay, ",
  "right away, ",
  "at this point, ",
  "while you are at it, ",
];

/** Words of a sentence. */
export const wordCount = (text: string) => text.trim().split(/\s+/).length;

/** Word counts of the fixed phrases (purposes, lead-ins), computed once. */
const phraseWords = new Map<string, number>();
function wordsOf(phrase: string): number {
  let n = phraseWords.get(phrase);
  if (n === undefined) {
    n = phrase ? wordCount(phrase) : 0;
    phraseWords.set(phrase, n);
  }
  return n;
}

/** Sentence length bounds of Stage 2 rule 1. */
export const MIN_WORDS = 10;
export const MAX_WORDS = 25;

/** A sentence for an option, with its template's opening verb and style. */
export interface OptionSentence {
  text: string;
  verb: string;
  style: OptionStyle;
}

/** What an option sentence must respect: a length to aim for and verbs already used. */
export interface SentenceGoal {
  targetWords: number;
  avoidVerbs: ReadonlySet<string>;
}

/**
 * One option sentence for an action: a seeded template whose opening verb is not in
 * `avoidVerbs` (when the action has another), then the purpose clause and lead-in that bring
 * it closest to `targetWords` within 10-25 words.
 */
export function optionSentence(
  def: Pick<TaskDef, "room" | "scenario">,
  action: ActionName,
  args: readonly string[],
  rng: Rng,
  goal: SentenceGoal,
): OptionSentence {
  const sc = scenario(def);
  const [o = "", t = ""] = args.map(nameOf);
  const templates = TEMPLATES[action];
  const fresh = templates.filter((x) => !goal.avoidVerbs.has(x.verb));
  const template = rng.pick(fresh.length > 0 ? fresh : templates);
  const core = template.text(o, t);
  const coreWords = wordCount(core);
  let best: { purpose: string; lead: string; gap: number; tie: number } | null = null;
  for (const purpose of sc.purposes)
    for (const lead of LEAD_INS) {
      const n = coreWords + wordsOf(purpose) + wordsOf(lead);
      const gap = n < MIN_WORDS || n > MAX_WORDS ? 1000 + n : Math.abs(n - goal.targetWords);
      const tie = rng.next();
      if (!best || gap < best.gap || (gap === best.gap && tie < best.tie))
        best = { purpose, lead, gap, tie };
    }
  const { purpose, lead } = best as { purpose: string; lead: string };
  return { text: `${core} ${lead}${purpose}.`, verb: template.verb, style: template.style };
}

/** How an object's state shows in the scene description. */
function stateWords(attrs: Record<string, boolean>, kindId: string): string[] {
  const kind = KINDS[kindId];
  const words: string[] = [];
  if ("on" in attrs) words.push(attrs.on ? "switched on" : "switched off");
  if ("open" in attrs && kind?.affordances.includes("openable"))
    words.push(attrs.open ? "open" : "closed");
  if ("plugged" in attrs) words.push(attrs.plugged ? "plugged in" : "unplugged");
  if ("filled" in attrs) words.push(attrs.filled ? "full" : "empty");
  if ("cut" in attrs) words.push(attrs.cut ? "sliced" : "whole");
  if ("turned" in attrs) words.push(attrs.turned ? "turned on" : "turned off");
  return words;
}

/** What a scene description needs to know about one visible object. */
export interface SceneObject {
  id: string;
  kind: string;
  attrs: Record<string, boolean>;
  /** Visible objects on or in it, by id. */
  holds: string[];
}

/** What the agent's viewpoint shows: the stand-in for the first-person image (see docs). */
export interface SceneView {
  room: string;
  height: Height;
  /** Objects visible from the entrance (shown when nothing is in focus). */
  visible: SceneObject[];
  focus: SceneObject | null;
  /** The object the agent stands next to, if any. */
  near: string | null;
  held: string | null;
}

function objectPhrase(obj: SceneObject, height: Height): string {
  const states = stateWords(obj.attrs, obj.kind);
  const level = KINDS[obj.kind]?.level;
  const where =
    height === "child" && level === "high"
      ? ", high above you"
      : height === "adult" && level === "low"
        ? ", down near the floor"
        : "";
  return `the ${nameOf(obj.kind)}${states.length ? ` (${states.join(", ")})` : ""}${where}`;
}

/** The scene description for a viewpoint. */
export function describeScene(view: SceneView): string {
  const room = ROOMS[view.room]?.name ?? view.room.replace(/_/g, " ");
  const eye = view.height === "child" ? "From a child's eye level" : "From an adult's eye level";
  const parts: string[] = [];
  if (!view.focus) {
    parts.push(`${eye}, you stand at the entrance of the ${room}.`);
    parts.push(
      `You can see ${joinPhrases(view.visible.map((o) => objectPhrase(o, view.height)))}.`,
    );
  } else {
    parts.push(`${eye}, you are looking at ${objectPhrase(view.focus, view.height)}.`);
    if (view.focus.holds.length > 0)
      parts.push(`With it: ${joinPhrases(view.focus.holds.map((h) => `the ${nameOf(h)}`))}.`);
    if (view.near === view.focus.id) parts.push("It is within arm's reach.");
    else if (view.near)
      parts.push(`You are standing by the ${nameOf(view.near)}; it is across the room.`);
    else parts.push("It is across the room.");
  }
  parts.push(view.held ? `You are holding the ${nameOf(view.held)}.` : "Your hands are empty.");
  return parts.join(" ");
}

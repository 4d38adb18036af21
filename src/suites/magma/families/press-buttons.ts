/**
 * Press Buttons (Table 2: 1 robot; MU, SE, IN). The authors' button panel: the user asks for
 * presses, ordered sequences, and states order rules the robot must keep applying: a
 * precedence rule (even-numbered buttons before odd ones, or the reverse) and a prefix rule
 * (always start with a given button). Presses are judged on the ordered action log.
 */
import { Catalog } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { Unit } from "../types.ts";
import { list, p3, same } from "./common.ts";

const ROBOT = "presser";

const SKILLS: SkillDef[] = [
  {
    name: "press",
    description: "Press a button of the panel.",
    params: { button: { type: "string", description: "The name of the button, e.g. sw0." } },
    action: "press",
    args: ["param:button"],
    kind: "act",
    faults: ["execution"],
    report: (_s, _r, a) => ({ message: `${a.button} pressed.` }),
  },
];

const CATALOG = new Catalog({
  actions: [
    {
      name: "press",
      description: "press a button",
      parameters: ["button"],
      preconditions: [{ check: "affords", arg: 0, affordance: "pressable" }],
      effects: [],
    },
  ],
});

function pressUnit(button: string): Unit {
  return {
    kind: "press",
    args: { button },
    atoms: [],
    logs: [{ match: { skill: "press", args: { button } }, op: "ge", count: 1 }],
  };
}

function buttons(b: MissionBuilder): string[] {
  return b.nodes.ofCategory("button");
}

const parity = (button: string) => Number(button.replace(/\D/g, "")) % 2;

/** A request's presses under the active rules: the prefix first, the precedence as pairs. */
function underRules(
  b: MissionBuilder,
  chosen: string[],
): { units: Unit[]; precedes: [number, number][]; uses: string[] } {
  const uses: string[] = [];
  let seq = chosen.slice();
  const prefix = b.rule("prefix")?.value;
  if (prefix) {
    uses.push("prefix");
    seq = [prefix, ...seq.filter((x) => x !== prefix)];
  }
  const precedes: [number, number][] = [];
  if (prefix) for (let j = 1; j < seq.length; j++) precedes.push([0, j]);
  const order = b.rule("order")?.value;
  if (order) {
    uses.push("order");
    const first = order === "even-first" ? 0 : 1;
    seq.forEach((x, i) => {
      seq.forEach((y, j) => {
        if (i !== j && parity(x) === first && parity(y) !== first && !(prefix && j === 0))
          precedes.push([i, j]);
      });
    });
  }
  return { units: seq.map(pressUnit), precedes, uses };
}

function orderSay(order: string) {
  const [a, z] = order === "even-first" ? ["even", "odd"] : ["odd", "even"];
  return p3(
    `Remember: always press ${a}-numbered buttons before ${z}-numbered ones.`,
    `From now on, ${a} buttons come before ${z} buttons whenever I ask for presses.`,
    `Rule: ${a}-numbered buttons first, ${z}-numbered ones after.`,
  );
}

function prefixSay(button: string) {
  return p3(
    `Remember: always start with ${button} before any other button.`,
    `From now on, every sequence begins with ${button}.`,
    `Rule: ${button} is always pressed first.`,
  );
}

function request(b: MissionBuilder): void {
  const rng = b.rng;
  const all = buttons(b);
  const roll = rng.next();
  if (b.wantsRule || (b.withRules && roll < 0.15)) {
    if (!b.rule("order") && (rng.chance(0.5) || b.rule("prefix"))) {
      const order = rng.pick(["even-first", "odd-first"]);
      b.ack(orderSay(order), { request: "rule", key: "order", value: order });
    } else {
      const button = rng.pick(all);
      b.ack(prefixSay(button), { request: "rule", key: "prefix", value: button });
    }
    return;
  }
  if (roll < 0.25 && b.rule("prefix")) {
    const value = b.rule("prefix")?.value as string;
    b.ask(
      same("Which button do you always press first?"),
      { kind: "value", value, others: all.filter((x) => x !== value) },
      `I always start with ${value}.`,
      { request: "rule-question", uses: ["prefix"] },
    );
    return;
  }
  if (roll < 0.3) {
    b.ask(
      p3(
        "How many buttons does the panel have?",
        "Count the buttons on the panel.",
        "Tell me the number of buttons on the panel.",
      ),
      { kind: "count", n: all.length },
      `The panel has ${all.length} buttons.`,
      { request: "question" },
    );
    return;
  }
  const chosen = rng.shuffle(all).slice(0, rng.range(2, 4));
  if (roll < 0.5 && !b.rule("prefix") && !b.rule("order")) {
    b.act(
      chosen.map(pressUnit),
      p3(
        `Press ${chosen.join(", then ")}.`,
        `In this order: ${chosen.join(", ")}.`,
        `Press ${chosen.join(" first, then ")}, exactly in that order.`,
      ),
      { request: "ordered", ordered: "instruction", report: rng.chance(0.3) },
    );
    return;
  }
  const r = underRules(b, chosen);
  b.act(
    r.units,
    p3(
      `Press ${list(chosen)}.`,
      `Please press the buttons ${list(chosen)}.`,
      `I need ${list(chosen)} pressed.`,
    ),
    {
      request: r.uses.length ? "underspecified" : "direct",
      uses: r.uses,
      precedes: r.precedes,
      precedesSource: "rule",
      report: rng.chance(0.3),
    },
  );
}

function step(ctx: StepContext): ExpertCall | null {
  const next = ctx.open[0];
  return next ? { skill: "press", args: { button: next.args.button as string } } : null;
}

export const pressButtons: Family & PlanHooks = {
  id: "press-buttons",
  title: "Press Buttons",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "A robot presses the buttons of a panel (sw0, sw1, ...) when asked. Order rules, once given, apply to every later request until changed.",
  rules: ["Press only the buttons asked for; a request may fix an order."],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { press: 2 },
  vocabulary: {
    presser: ["panel_robot", "operator"],
    press: ["push", "actuate"],
    panel: ["console", "board"],
  },
  attributes: (s) => ({ buttons: s.index.ofCategory("button") }),
  initiallyKnown: () => [],
  cost: () => 1,
  step,
  generate(b) {
    const rng = b.rng;
    const n = rng.range(5, 8);
    const scene = new SceneBuilder().room("lab").place("panel", { in: "lab", kind: "surface" });
    for (let i = 0; i < n; i++)
      scene.fixture(`sw${i}`, { in: "panel", category: "button", affords: ["pressable"] });
    scene.robot(ROBOT, { room: "lab", hands: 0, skills: ["press"] });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    if (key === "order") {
      const value = b.rule("order")?.value === "even-first" ? "odd-first" : "even-first";
      const [a, z] = value === "even-first" ? ["even", "odd"] : ["odd", "even"];
      return {
        value,
        say: p3(
          `Change of plan: from now on, ${a} buttons come before ${z} buttons.`,
          `Update: ${a}-numbered buttons first now, then ${z}-numbered ones.`,
          `Forget the earlier order rule; ${a} before ${z} from now on.`,
        ),
      };
    }
    const value = b.rng.pick(buttons(b).filter((x) => x !== b.rule("prefix")?.value));
    return {
      value,
      say: p3(
        `Change of plan: always start with ${value} from now on.`,
        `Update: the first button is now ${value}.`,
        `Forget the earlier start button; begin with ${value}.`,
      ),
    };
  },
  interruption(b, exclude) {
    const free = buttons(b).filter((x) => !exclude.has(x));
    if (free.length === 0) return null;
    const button = b.rng.pick(free);
    return {
      units: [pressUnit(button)],
      say: p3(
        `Press ${button} now.`,
        `${button} needs pressing right away.`,
        `Quick, press ${button}.`,
      ),
    };
  },
};

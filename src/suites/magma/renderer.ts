/**
 * The harness for the generic llm agent: skills are native tools with a target-robot argument
 * (several calls in one reply address several robots), `say`/`wait` are pseudo-tools, each
 * event batch is one user message in a growing chat, and the permanent rules, the robots'
 * skill sets and the observed attributes are in the prompt. A reply with text and calls: the
 * calls win and the text is logged (the llm agent's note), as the authors' runner does.
 */
import type { Observation, Renderer, TaskCard } from "../../core/index.ts";
import type { MagmaView } from "./environment.ts";

export const magmaRenderer: Renderer = {
  output: "tools",
  context: "chat",
  system(card: TaskCard): string {
    return [
      card.instructions,
      "",
      "Permanent rules:",
      ...card.rules.map((r) => `- ${r}`),
      "",
      "Call skills as tools with the `robot` argument naming the robot that executes them; one call per robot per reply.",
      "Use `say` to answer or report to the user and `wait` to let running skills finish.",
    ].join("\n");
  },
  user(observation: Observation): string {
    const view = observation.view as MagmaView | null;
    const lines = [`t = ${observation.simTime ?? 0}s`];
    for (const e of observation.events) {
      const who = e.type === "user" ? "user" : e.type === "skill" ? "robot" : e.type;
      lines.push(`[${who}] ${e.text ?? ""}`);
    }
    if (observation.events.length === 0) lines.push("(no new event)");
    if (view?.attributes) lines.push(`Attributes: ${JSON.stringify(view.attributes)}`);
    return lines.join("\n");
  },
  sampling: { temperature: 0 },
};

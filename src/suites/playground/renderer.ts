/**
 * The harness for the generic llm agent (the paper's agents are coding agents, §6.1): native
 * tool calls over the granted operations, a chat context, and a code-mode brief. A model can
 * act one control step at a time, call planning tools, or send `run_program` with a
 * JavaScript program that loops over observe()/step() inside the sandbox.
 */
import type { Renderer, TaskCard } from "../../core/index.ts";

const CODE_MODE = `Code mode: call run_program with {"code": "..."} to run JavaScript in a sandbox.
Inside, observe() returns the view, step(command, periods) applies a low-level command
(the step tool's arguments) for that many control periods, wait(seconds) holds, and
tool(name, args) calls any granted tool. console.log(...) lines and the program's return value
come back. Every control period counts against the action and simulated-time budgets, the
program is stopped at the wall-clock budget, and it ends when the episode ends. A call the
environment refuses is a rejected action, inside a program as outside (see the rules).`;

export const playgroundRenderer: Renderer = {
  output: "tools",
  context: "chat",
  system(card: TaskCard): string {
    const tools = card.tools.map((t) => `- ${t.name}: ${t.description}`).join("\n");
    return [
      `Task: ${card.title}`,
      card.instructions,
      `Rules:\n${card.rules.map((r) => `- ${r}`).join("\n")}`,
      `Operations (describe is this message; observe does not advance time; finish ends the episode and the independent evaluator decides):\n${tools}`,
      CODE_MODE,
      `Budgets: ${JSON.stringify(card.budgets)}. Each user message is an observation as JSON (events since your last decision and your view). One reply is one decision; call "finish" through the finish action when done.`,
    ].join("\n\n");
  },
  user(observation): string {
    return JSON.stringify(observation);
  },
};

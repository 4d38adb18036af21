/** One episode of the llm agent: prompts from the renderer, replies parsed into decisions. */
import {
  type Action,
  type AgentContext,
  type AgentSession,
  addUsage,
  type Decision,
  emptyUsage,
  type GoalState,
  type Json,
  LonghaulError,
  type ModelCall,
  type Observation,
  type ParsedReply,
  type Renderer,
  type TaskCard,
  type TraceStep,
} from "../../core/index.ts";
import {
  DISPATCHER_INSTRUCTIONS,
  goalStateText,
  lastTurns,
  type MemoryStrategy,
  StateManager,
  stateBlock,
} from "./memory/index.ts";
import { type CallContext, callModel, type ModelClient } from "./model-client.ts";
import type { ModelReply, RequestSettings, Turn } from "./providers/index.ts";
import { parseActionReply, stripReasoning } from "./reply-parse.ts";
import {
  EpisodeMemory,
  type MemoryPolicy,
  SKILL_WRITER_SYSTEM,
  skillRequest,
} from "./stream-memory.ts";
import { ToolCatalog } from "./tool-catalog.ts";

/**
 * How replies are read: native tool calls; the JSON fallback (catalog in the prompt, one
 * Action as JSON); or the renderer's own json/text format.
 */
export type ReplyMode = "tools" | "json-fallback" | "renderer";

/** What a session needs beyond the card and the runner's context. */
export interface SessionSetup {
  client: ModelClient;
  renderer: Renderer;
  mode: ReplyMode;
  settings: RequestSettings;
  /** How stream memory is carried (see stream-memory.ts); default: as the stream asks. */
  memory?: MemoryPolicy;
  /** The state-tracking strategy within an episode (`--memory`); default full history. */
  tracking?: MemoryStrategy;
  /** The state manager's model and settings, for `reflection` and `explicit`. */
  manager?: { client: ModelClient; settings: RequestSettings };
}

/** The tool result each accepted call gets in chat context (the outcome comes as an observation). */
export const ACCEPTED = "Accepted; the next observation reports the outcome.";

/** A session of the generic llm agent. */
export class LlmSession implements AgentSession {
  private readonly catalog: ToolCatalog;
  /** The harness's system prompt; the stream memory's section is added to it. */
  private readonly baseSystem: string;
  private readonly memory: EpisodeMemory;
  private readonly call: CallContext;
  /** The conversation so far (chat context only). */
  private readonly turns: Turn[] = [];
  private readonly history: TraceStep[] = [];
  /** Tool calls of the last assistant turn, which the next user turn must answer. */
  private openCalls: string[] = [];
  /** Why the last reply was unusable, fed back with the next observation. */
  private feedback: string | undefined;
  /** Messages already logged in earlier calls of this chat (see logged()). */
  private loggedMessages = 0;
  private readonly tracking: MemoryStrategy;
  /** The second model of `reflection` and `explicit`. */
  private readonly manager: StateManager | undefined;
  /** The suite's goal state, for `oracle-state`. */
  private readonly goalState: (() => GoalState | undefined) | undefined;
  /** The last decision as the state manager is told it. */
  private lastDecision: string | undefined;

  constructor(
    private readonly card: TaskCard,
    context: AgentContext,
    private readonly setup: SessionSetup,
  ) {
    const { renderer, mode } = setup;
    if (mode === "renderer" && renderer.output === "text" && !renderer.parse) {
      throw new LonghaulError("USAGE", "a renderer with text output must provide parse()");
    }
    this.catalog = new ToolCatalog(card);
    this.tracking = setup.tracking ?? { kind: "full" };
    const base = renderer.system(card);
    const system = mode === "json-fallback" ? `${base}\n\n${this.catalog.describeForJson()}` : base;
    const kind = this.tracking.kind;
    // The dispatcher's prompt is the single model's plus what describes the state it is given.
    this.baseSystem =
      kind === "reflection" || kind === "explicit" || kind === "oracle-state"
        ? `${system}\n\n${DISPATCHER_INSTRUCTIONS[kind]}`
        : system;
    this.memory = new EpisodeMemory(context, setup.memory ?? "stream", card.title);
    this.call = {
      gate: context.gate,
      signal: context.signal,
      rng: context.rng.derive("llm-backoff"),
      epoch: context.epoch,
    };
    if (kind === "reflection" || kind === "explicit") {
      if (!setup.manager)
        throw new LonghaulError("USAGE", `memory "${kind}" needs a state manager`);
      this.manager = new StateManager(kind, {
        ...setup.manager,
        system: base,
        call: { ...this.call, rng: context.rng.derive("llm-backoff:manager") },
      });
    }
    if (kind === "oracle-state") {
      if (!context.goalState) {
        throw new LonghaulError(
          "USAGE",
          'memory "oracle-state" needs the goal-state access and a suite that states its goals (Suite.goalState)',
        );
      }
      this.goalState = context.goalState;
    }
  }

  /** The system prompt with the stream memory's section (trajectories or skill note). */
  private get system(): string {
    const section = this.memory.systemSection();
    return section ? `${this.baseSystem}\n\n${section}` : this.baseSystem;
  }

  /** Distill the learning trajectories into a skill note (one model call, logged). */
  private async writeSkillNote(): Promise<ModelCall> {
    const { client, settings } = this.setup;
    const request = client.adapter.buildRequest(
      {
        system: SKILL_WRITER_SYSTEM,
        turns: [{ role: "user", toolResults: [], texts: [skillRequest(this.memory.pending())] }],
        tools: [],
      },
      settings,
    );
    const { reply, call } = await callModel(client, request, this.call);
    this.memory.setNote(stripReasoning(reply.text));
    return call;
  }

  async act(observation: Observation): Promise<Decision> {
    const { client, renderer, mode, settings } = this.setup;
    const calls: ModelCall[] = [];
    if (this.memory.needsSkillNote()) calls.push(await this.writeSkillNote());
    // The task state the dispatcher sees instead of the history, when the strategy keeps one.
    let state: string | undefined;
    if (this.manager) {
      const seen = renderer.user(observation, { card: this.card, history: [] });
      calls.push(await this.manager.update(seen, this.lastDecision));
      state = this.manager.state();
    } else if (this.goalState) {
      state = goalStateText(this.goalState());
    }
    const tracking = this.tracking;
    const history =
      state !== undefined
        ? []
        : tracking.kind === "last-k"
          ? this.history.slice(-tracking.k)
          : this.history;
    const rendered = renderer.user(observation, { card: this.card, history });
    const chat = renderer.context === "chat" && state === undefined;
    const userTurn = this.userTurn(
      state === undefined ? rendered : `${stateBlock(state)}\n\n${rendered}`,
      chat,
    );
    const past = tracking.kind === "last-k" ? lastTurns(this.turns, tracking.k) : this.turns;
    const prompt = {
      system: this.system,
      turns: chat ? [...past, userTurn] : [userTurn],
      tools: mode === "tools" ? this.catalog.tools : [],
    };
    const request = client.adapter.buildRequest(prompt, settings);
    const { reply, call } = await callModel(client, request, this.call);
    // Only a full chat grows by appending; a window's request is logged whole (it is bounded).
    if (chat && tracking.kind === "full") call.request = this.logged(request);
    calls.push(call);

    if (chat) {
      this.turns.push(userTurn, { role: "assistant", message: reply.assistant });
      this.openCalls = reply.toolCalls.map((toolCall) => toolCall.id);
    }
    const parsed = this.parse(reply);
    this.feedback = parsed.ok ? undefined : parsed.error;
    this.lastDecision = parsed.ok
      ? JSON.stringify(parsed.action)
      : `an unusable reply (${parsed.error})`;

    const usage = calls.reduce((sum, c) => addUsage(sum, c.usage), emptyUsage());
    const decision: Decision = { raw: rawOf(reply), usage, calls };
    if (parsed.ok) {
      decision.action = parsed.action;
      const note = parsed.note ?? (mode === "tools" ? stripReasoning(reply.text).trim() : "");
      if (note) decision.note = note;
      if (parsed.extra) decision.extra = parsed.extra;
    } else {
      decision.formatError = parsed.error;
    }
    this.memory.record(
      rendered,
      decision.action ? actionText(decision.action) : `(unusable) ${decision.raw ?? ""}`,
    );
    const step: TraceStep = { step: observation.step, observation, raw: decision.raw };
    if (decision.action) step.action = decision.action;
    if (decision.formatError) step.formatError = decision.formatError;
    this.history.push(step);
    return decision;
  }

  async end(summary: { success: boolean; steps: number }): Promise<void> {
    this.memory.end(summary);
  }

  snapshot(): Json {
    return this.memory.snapshot() ?? null;
  }

  /**
   * The request as the trace keeps it: in chat context only the messages added since the
   * previous call, with `priorMessages` counting those left out, so a long chat's trace grows
   * linearly rather than quadratically. The full request is the concatenation over the calls.
   */
  private logged(request: Record<string, unknown>): Record<string, unknown> {
    const messages = request.messages;
    if (!Array.isArray(messages)) return request;
    const prior = this.loggedMessages;
    this.loggedMessages = messages.length;
    return prior === 0
      ? request
      : { ...request, messages: messages.slice(prior), priorMessages: prior };
  }

  /**
   * The next user turn. In chat context, open tool calls get results (the error when the
   * reply was unusable) and other feedback is a message of its own; in stateless context the
   * feedback is appended to the user message.
   */
  private userTurn(rendered: string, chat: boolean): Turn {
    const feedback = this.feedback
      ? `Your previous reply was unusable: ${this.feedback}. Reply again in the required format.`
      : undefined;
    if (!chat) {
      return {
        role: "user",
        toolResults: [],
        texts: [feedback ? `${rendered}\n\n${feedback}` : rendered],
      };
    }
    const toolResults = this.openCalls.map((id) => ({
      id,
      content: feedback ? `Error: ${feedback}` : ACCEPTED,
    }));
    const texts = feedback && toolResults.length === 0 ? [feedback, rendered] : [rendered];
    return { role: "user", toolResults, texts };
  }

  private parse(reply: ModelReply): ParsedReply {
    const { mode, renderer } = this.setup;
    if (mode === "tools") return this.catalog.fromToolCalls(reply.toolCalls);
    if (mode === "renderer" && renderer.parse) {
      return renderer.parse(stripReasoning(reply.text), this.card);
    }
    return parseActionReply(reply.text, this.catalog);
  }
}

/** A decision's action as a trajectory shows it: `select_option {"option":"B"}`. */
function actionText(action: Action): string {
  switch (action.kind) {
    case "tool":
      return action.calls.map((c) => `${c.tool} ${JSON.stringify(c.args)}`).join("; ");
    case "say":
      return `say: ${action.text}`;
    default:
      return action.kind;
  }
}

/** The raw model output for the log: the text, or the text and tool calls as JSON. */
function rawOf(reply: ModelReply): string {
  if (reply.toolCalls.length === 0) return reply.text;
  return JSON.stringify({
    text: reply.text || undefined,
    tool_calls: reply.toolCalls.map((call) => ({ name: call.name, arguments: call.argumentsJson })),
  });
}

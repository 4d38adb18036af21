/**
 * The honest `explorer` baseline: it reads only the observation (the appendix B payload),
 * keeps a belief graph of what it has seen (explorer-belief.ts) and picks each action with a
 * greedy task-level planner on that belief: deliver what it holds, open what blocks a goal
 * object or target, grab goal objects, explore (open unexplored containers, move blockers
 * aside, walk to unvisited rooms), close finished containers, stop when the belief says the
 * goal holds. Failure feedback is read from the view: an injected failure is retried once,
 * an action that failed twice is not proposed again (the next alternative is), and a goal
 * node that vanished from its remembered place starts a fresh round of exploration.
 * `explorer-window` runs the same policy on the appendix B payload alone (the llm agent's
 * user payload: current view, goal, 16 most recent actions with outcomes) and keeps nothing
 * between decisions, so it measures what the task-state horizon costs without memory.
 */
import { z } from "zod";
import type { Agent, AgentSession, Decision, Observation, TraceStep } from "../../core/index.ts";
import { type ActionName, atomNodeIds, Goal, type GoalAtom } from "../../world/index.ts";
import { HarnessView } from "./environment.ts";
import { Belief, type SeenView } from "./explorer-belief.ts";
import { userPayload } from "./renderer.ts";

/** An action that failed this often is not proposed again. */
const FAIL_LIMIT = 2;
/** A non-walk action is issued at most this often in an episode (a loop guard). */
const REPEAT_LIMIT = 5;
/** Rounds of exploration (each after a vanished node or a fruitless sweep) before giving up. */
const ROUND_LIMIT = 3;

/** What the perfect-memory explorer reads each step: the goal and the harness view. */
const ExplorerView = z.object({ success_criterion: Goal, current_observation: HarnessView });

/** One recent_history entry of the appendix B payload (Figure 11). */
const HistoryEntry = z.object({
  action: z.object({ name: z.string(), node_ids: z.array(z.string()) }),
  event: z.object({ status: z.string(), failure_type: z.string().nullable() }),
});

/** What `explorer-window` reads each step: the LLM's user payload (appendix B, Figures 10-11). */
const WindowPayload = z.object({
  success_criterion: Goal,
  recent_history: z.array(HistoryEntry),
  current_observation: HarnessView.pick({
    visible_nodes: true,
    visible_edges: true,
    held_objects: true,
    robot: true,
  }),
});

/** An action's outcome as the agent saw it. */
interface Outcome {
  action: { name: string; args: string[] };
  status: "success" | "failure";
  failure_type: string | null;
}

/** What one decision is made on. */
interface Input {
  goal: Goal;
  view: SeenView;
  /** The outcome of the previous action, if any. */
  last: Outcome | null;
  /** Older outcomes still remembered (explorer-window: the rest of the 16-step window). */
  earlier: Outcome[];
}

/** A chosen catalog action and why. */
interface Act {
  name: ActionName;
  args: string[];
  why: string;
}

/** A placement the goal needs: object to target (null target: anywhere but `avoid`). */
interface Task {
  object: string;
  rel: "ON" | "INSIDE";
  target: string | null;
  avoid?: string;
}

const keyOf = (a: { name: string; args: readonly string[] }) => `${a.name}(${a.args.join(",")})`;

/**
 * One episode of the explorer. With `window` it keeps nothing between decisions: each step it
 * rebuilds its belief and bookkeeping from the appendix B payload alone (the current view,
 * the goal and the 16 most recent actions with their outcomes), as a stateless LLM harness
 * sees an episode; otherwise it remembers everything it has seen.
 */
class ExplorerSession implements AgentSession {
  private belief = new Belief();
  private failures = new Map<string, number>();
  private issued = new Map<string, number>();
  private retried = new Set<string>();
  private incapable = new Set<string>();
  private movedAside = new Set<string>();
  private explored = new Set<string>();
  private visited = new Set<string>();
  private rounds = 0;
  private atoms: GoalAtom[] = [];
  private tasks: Task[] = [];
  private goalNodes = new Set<string>();
  /** explorer-window: its own transcript, from which the renderer builds the payload. */
  private readonly history: TraceStep[] = [];

  constructor(private readonly window: boolean) {}

  async act(observation: Observation): Promise<Decision> {
    const input = this.window ? this.fromPayload(observation) : this.fromView(observation);
    if (!input) return { action: { kind: "finish" }, note: "unreadable observation" };
    const failed = input.last?.status === "failure" ? input.last : null;
    const act = this.decide(input);
    if (!this.window) this.issued.set(keyOf(act), (this.issued.get(keyOf(act)) ?? 0) + 1);
    const extra = {
      reason: act.why,
      recovery: {
        required: failed !== null,
        failed_action: failed ? failed.action.name : null,
        failed_node_ids: failed ? failed.action.args : [],
      },
    };
    const action: Decision["action"] =
      act.name === "stop"
        ? { kind: "finish" }
        : { kind: "tool", calls: [{ tool: act.name, args: { node_ids: act.args } }] };
    if (this.window) this.history.push({ step: observation.step, observation, action });
    return { action, note: act.why, extra };
  }

  /** The perfect-memory input: the observation's view and its last action's feedback. */
  private fromView(observation: Observation): Input | null {
    const parsed = ExplorerView.safeParse(observation.view);
    if (!parsed.success) return null;
    const view = parsed.data.current_observation;
    return { goal: parsed.data.success_criterion, view, last: view.last_action, earlier: [] };
  }

  /**
   * The explorer-window input: exactly the user payload an LLM gets (renderer.ts), parsed
   * back. Everything remembered from earlier decisions is forgotten first.
   */
  private fromPayload(observation: Observation): Input | null {
    const parsed = WindowPayload.safeParse(userPayload(observation, this.history));
    if (!parsed.success) return null;
    this.belief = new Belief();
    this.failures = new Map();
    this.issued = new Map();
    this.retried = new Set();
    this.incapable = new Set();
    this.movedAside = new Set();
    this.explored = new Set();
    this.visited = new Set();
    this.rounds = 0;
    const outcomes: Outcome[] = parsed.data.recent_history.map((h) => ({
      action: { name: h.action.name, args: h.action.node_ids },
      status: h.event.status === "success" ? "success" : "failure",
      failure_type: h.event.failure_type,
    }));
    const last = outcomes.pop() ?? null;
    return {
      goal: parsed.data.success_criterion,
      view: parsed.data.current_observation,
      last,
      earlier: outcomes,
    };
  }

  private decide(input: Input): Act {
    const view = input.view;
    const b = this.belief;
    // Remembered actions first (explorer-window), so that the current view overrides them.
    const remembered = [...input.earlier, ...(input.last ? [input.last] : [])];
    if (this.window) {
      for (const [k, o] of input.earlier.entries()) this.learn(o, remembered[k + 1]);
      for (const o of remembered)
        if (o.status === "success") b.applyOwn(o.action.name, o.action.args);
      for (const o of remembered)
        this.issued.set(keyOf(o.action), (this.issued.get(keyOf(o.action)) ?? 0) + 1);
    }
    this.atoms = input.goal.all;
    for (const a of this.atoms)
      if (a.pred === "INSIDE" || a.pred === "ON")
        b.markKind(a.target, a.pred === "INSIDE" ? "container" : "surface");
    if (b.update(view).length > 0) this.newRound();
    for (const a of this.atoms)
      if (a.pred === "INSIDE" || a.pred === "ON")
        b.markKind(a.target, a.pred === "INSIDE" ? "container" : "surface");
    this.visited.add(b.room);
    for (const id of b.visible) if (b.nodes.get(id)?.open === true) this.explored.add(id);
    const retry = input.last ? this.readFeedback(input.last) : null;
    if (retry) return retry;
    this.goalNodes = new Set(this.atoms.flatMap(atomNodeIds));
    this.tasks = this.pendingTasks();
    if (this.atoms.every((a) => b.holds(a))) return { name: "stop", args: [], why: "goal holds" };
    for (let attempt = 0; attempt <= ROUND_LIMIT; attempt++) {
      const act = this.plan();
      if (act) return act;
      if (this.rounds >= ROUND_LIMIT) break;
      this.newRound();
    }
    return { name: "stop", args: [], why: "nothing left to try" };
  }

  /**
   * Bookkeeping from one remembered outcome (explorer-window replays its window): failures,
   * incapable actions, blockers moved aside, containers explored, rooms visited, retries.
   */
  private learn(o: Outcome, next: Outcome | undefined): void {
    const [first] = o.action.args;
    if (o.status === "success") {
      if (o.action.name === "move_aside" && first) this.movedAside.add(first);
      if (o.action.name === "open" && first) this.explored.add(first);
      if (o.action.name === "walk" && first) this.visited.add(first);
      return;
    }
    const key = keyOf(o.action);
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    if (o.failure_type === "injected_failure" && next && keyOf(next.action) === key)
      this.retried.add(key);
    if (o.failure_type === "missing_affordance" || o.failure_type === "incompatible")
      this.incapable.add(key);
    if (o.failure_type === "already_in_state" && o.action.name === "move_aside" && first)
      this.movedAside.add(first);
  }

  /** Learn from the last action's outcome; an injected failure is retried once at once. */
  private readFeedback(last: Outcome): Act | null {
    const [first] = last.action.args;
    if (last.status === "success") {
      if (last.action.name === "move_aside" && first) this.movedAside.add(first);
      return null;
    }
    const key = keyOf(last.action);
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    switch (last.failure_type) {
      case "injected_failure":
        if (!this.retried.has(key)) {
          this.retried.add(key);
          return {
            name: last.action.name as ActionName,
            args: last.action.args,
            why: "retry after an execution failure",
          };
        }
        break;
      case "missing_affordance":
      case "incompatible":
        this.incapable.add(key);
        break;
      case "already_in_state":
        if (last.action.name === "move_aside" && first) this.movedAside.add(first);
        break;
      case "not_visible":
        for (const id of last.action.args) {
          const node = this.belief.nodes.get(id);
          if (node && !this.belief.visible.has(id) && node.kind !== "room") node.parent = null;
        }
        break;
      default:
        break;
    }
    return null;
  }

  private newRound(): void {
    this.rounds++;
    this.movedAside = new Set();
    this.explored = new Set();
    this.visited = new Set([this.belief.room]);
  }

  /** Unsatisfied placements, including COUNT deficits and surpluses. */
  private pendingTasks(): Task[] {
    const b = this.belief;
    const tasks: Task[] = [];
    for (const atom of this.atoms) {
      if (b.holds(atom)) continue;
      if (atom.pred === "ON" || atom.pred === "INSIDE")
        tasks.push({ object: atom.object, rel: atom.pred, target: atom.target });
      else if (atom.pred === "COUNT") {
        const here = b.countAt(atom.category, atom.rel, atom.target);
        if (here.length < atom.n) {
          const spare = [...b.nodes.values()].filter(
            (n) => n.category === atom.category && !here.includes(n.id) && n.kind === "thing",
          );
          for (const n of spare.slice(0, atom.n - here.length))
            tasks.push({ object: n.id, rel: atom.rel, target: atom.target });
        } else if (atom.op === "exactly")
          for (const id of here.slice(atom.n))
            tasks.push({ object: id, rel: "ON", target: null, avoid: atom.target });
      }
    }
    return tasks;
  }

  /** The first applicable action by priority, or null when nothing is left to try. */
  private plan(): Act | null {
    return (
      this.deliver() ??
      this.closeFinished(true) ??
      this.openForTasks() ??
      this.exploreHere() ??
      this.stateAtoms() ??
      this.grabForTasks(false) ??
      this.travel() ??
      this.closeFinished(false) ??
      this.grabForTasks(true) ??
      this.exploreElsewhere()
    );
  }

  private allowed(act: Act): Act | null {
    const key = keyOf(act);
    if (this.incapable.has(key) || (this.failures.get(key) ?? 0) >= FAIL_LIMIT) return null;
    if (act.name !== "walk" && (this.issued.get(key) ?? 0) >= REPEAT_LIMIT) return null;
    return act;
  }

  private taskFor(object: string): Task | undefined {
    return this.tasks.find((t) => t.object === object);
  }

  /** The container to open before `target` can take an object, or null when it is ready. */
  private blockerOf(target: string): string | null {
    const node = this.belief.nodes.get(target);
    if (node?.open === false) return target;
    return this.belief.closedAncestor(target);
  }

  private ready(target: string): boolean {
    const node = this.belief.nodes.get(target);
    return this.belief.visible.has(target) && node?.open !== false && node?.isFull !== true;
  }

  /** A visible place to set a held object down (surfaces first), avoiding `avoid`. */
  private setDown(object: string, avoid?: string): Act | null {
    const b = this.belief;
    const task = this.taskFor(object);
    if (task?.target && this.ready(task.target)) return this.put(object, task.target, task.rel);
    const places = [...b.visible]
      .map((id) => b.nodes.get(id))
      .filter(
        (n) =>
          n &&
          n.id !== avoid &&
          n.id !== object &&
          n.isFull !== true &&
          (n.kind === "surface" || (n.kind === "container" && n.open !== false)),
      )
      .sort((x, y) => Number(x?.kind !== "surface") - Number(y?.kind !== "surface"));
    for (const place of places) {
      if (!place) continue;
      const act = this.allowed({
        name: place.kind === "surface" ? "puton" : "putin",
        args: [object, place.id],
        why: `set ${object} down to free a hand`,
      });
      if (act) return act;
    }
    return null;
  }

  private put(object: string, target: string, rel: "ON" | "INSIDE"): Act | null {
    return this.allowed({
      name: rel === "ON" ? "puton" : "putin",
      args: [object, target],
      why: `place ${object} ${rel === "ON" ? "on" : "in"} ${target}`,
    });
  }

  /** `act` if enough hands are free, else setting a held object down first. */
  private withHands(act: Act | null, hands: number): Act | null {
    if (!act) return null;
    const b = this.belief;
    if (b.freeHands() >= hands) return act;
    for (const h of b.hands) if (h) return this.setDown(h);
    return null;
  }

  /** Put held objects where the goal wants them when that place is in view and open. */
  private deliver(): Act | null {
    for (const h of this.belief.hands) {
      if (!h) continue;
      const task = this.taskFor(h);
      if (task?.target && this.ready(task.target)) {
        const act = this.put(h, task.target, task.rel);
        if (act) return act;
      }
      if (task && task.target === null) return this.setDown(h, task.avoid);
    }
    return null;
  }

  /** Nothing the goal still needs lies in or goes into this container. */
  private finished(container: string): boolean {
    const b = this.belief;
    const inside = (id: string) => id === container || b.within(id, container);
    const placing = this.tasks.some(
      (t) => inside(t.object) || (t.target !== null && inside(t.target)) || b.isHeld(t.object),
    );
    const assembling = this.atoms.some(
      (a) => a.pred === "ASSEMBLED" && !b.holds(a) && (inside(a.part) || inside(a.target)),
    );
    // A nested CLOSED-goal container is closed first: once its enclosure shuts it is out of reach.
    const closing = this.atoms.some(
      (a) => a.pred === "CLOSED" && a.node !== container && !b.holds(a) && inside(a.node),
    );
    // While goal nodes are missing, a blocker inside may hide one: look behind it first.
    const searching =
      this.unresolved().length > 0 &&
      [...b.visible].some((id) => id !== container && inside(id) && this.mayHide(id));
    return !placing && !assembling && !closing && !searching;
  }

  /** A visible non-goal object not yet moved aside this round: it may hide something. */
  private mayHide(id: string): boolean {
    const b = this.belief;
    return (
      b.nodes.get(id)?.kind === "thing" &&
      !this.goalNodes.has(id) &&
      !b.isHeld(id) &&
      !this.movedAside.has(id)
    );
  }

  /** Close CLOSED-goal containers in view once nothing more goes in or out. */
  private closeFinished(handsFreeOnly: boolean): Act | null {
    const b = this.belief;
    if (handsFreeOnly && b.freeHands() < 2) return null;
    for (const atom of this.atoms) {
      if (atom.pred !== "CLOSED" || b.holds(atom) || !b.visible.has(atom.node)) continue;
      if (!this.finished(atom.node)) continue;
      const act = this.withHands(
        this.allowed({ name: "close", args: [atom.node], why: `close ${atom.node} (goal)` }),
        2,
      );
      if (act) return act;
    }
    return null;
  }

  /**
   * Open the closed containers in view that hold a goal object, block a target or enclose a
   * CLOSED-goal container left open (nested ones: the outermost in view first).
   */
  private openForTasks(): Act | null {
    const b = this.belief;
    const reach = (id: string, why: string): Act | null => {
      const c = b.closedAncestors(id).find((a) => b.visible.has(a));
      return c
        ? this.withHands(
            this.allowed({ name: "open", args: [c], why: `open ${c} to reach ${why}` }),
            2,
          )
        : null;
    };
    for (const t of this.tasks) {
      const target = t.target ? this.blockerOf(t.target) : null;
      const act =
        (b.isHeld(t.object) ? null : reach(t.object, t.object)) ??
        (target && b.visible.has(target)
          ? this.withHands(
              this.allowed({
                name: "open",
                args: [target],
                why: `open ${target} to reach ${t.object}`,
              }),
              2,
            )
          : null) ??
        (t.target ? reach(t.target, t.target) : null);
      if (act) return act;
    }
    for (const atom of this.atoms) {
      if (atom.pred !== "CLOSED" || b.holds(atom) || b.visible.has(atom.node)) continue;
      const act = reach(atom.node, `${atom.node} and close it`);
      if (act) return act;
    }
    return null;
  }

  /** Goal nodes the belief cannot place (never seen, lost, or hidden without known cause). */
  private unresolved(): string[] {
    const b = this.belief;
    return [...this.goalNodes].filter((id) => {
      if (b.isHeld(id) || b.visible.has(id)) return false;
      const where = b.whereabouts(id);
      if (!where?.known) return true;
      return where.room === b.room && b.closedAncestor(id) === null;
    });
  }

  /** Reveal what this room hides: open unexplored containers, move blockers aside. */
  private exploreHere(): Act | null {
    if (this.unresolved().length === 0) return null;
    const b = this.belief;
    const seen = [...b.visible].map((id) => b.nodes.get(id)).filter((n) => n !== undefined);
    for (const n of seen)
      if (n.open === false && !this.explored.has(n.id)) {
        const act = this.withHands(
          this.allowed({ name: "open", args: [n.id], why: `explore inside ${n.id}` }),
          2,
        );
        if (act) return act;
      }
    // Blockers stand on things; objects stowed inside a container are tried last.
    const standing = seen
      .filter((n) => n.rel !== "INSIDE")
      .concat(seen.filter((n) => n.rel === "INSIDE"));
    for (const n of standing)
      if (this.mayHide(n.id)) {
        const act = this.withHands(
          this.allowed({ name: "move_aside", args: [n.id], why: `look behind ${n.id}` }),
          1,
        );
        if (act) return act;
      }
    return null;
  }

  /**
   * Grab visible goal objects whose target is known, local targets first; with `unknown`,
   * before leaving to search, one whose target has not been found (carried along).
   */
  private grabForTasks(unknown: boolean): Act | null {
    const b = this.belief;
    if (b.freeHands() === 0) return null;
    const candidates = this.tasks.filter(
      (t) =>
        b.visible.has(t.object) &&
        !b.isHeld(t.object) &&
        (t.target === null ||
          (unknown
            ? !b.located(t.target)
            : b.located(t.target) && b.nodes.get(t.target)?.isFull !== true)),
    );
    const local = (t: Task) => t.target === null || b.whereabouts(t.target)?.room === b.room;
    candidates.sort((x, y) => Number(!local(x)) - Number(!local(y)));
    for (const t of candidates) {
      const act = this.allowed({ name: "grab", args: [t.object], why: `pick up ${t.object}` });
      if (act) return act;
    }
    return null;
  }

  /** OPEN, PRESSED and ASSEMBLED atoms whose nodes are in view. */
  private stateAtoms(): Act | null {
    const b = this.belief;
    for (const atom of this.atoms) {
      if (b.holds(atom)) continue;
      let act: Act | null = null;
      if (atom.pred === "OPEN" && b.visible.has(atom.node))
        act = this.withHands(
          this.allowed({ name: "open", args: [atom.node], why: `open ${atom.node} (goal)` }),
          2,
        );
      else if (atom.pred === "PRESSED" && b.visible.has(atom.node))
        act = this.withHands(
          this.allowed({ name: "press", args: [atom.node], why: `press ${atom.node} (goal)` }),
          1,
        );
      else if (atom.pred === "ASSEMBLED" && b.visible.has(atom.part) && b.visible.has(atom.target))
        act = this.withHands(
          this.allowed({
            name: "attach",
            args: [atom.part, atom.target],
            why: `assemble ${atom.part} with ${atom.target}`,
          }) ??
            this.allowed({
              name: "attach",
              args: [atom.target, atom.part],
              why: `assemble ${atom.target} with ${atom.part}`,
            }),
          2,
        );
      if (act) return act;
    }
    return null;
  }

  private walkTo(room: string | null | undefined, why: string): Act | null {
    if (!room) return null;
    const next = this.belief.stepToward(room);
    return next ? this.allowed({ name: "walk", args: [next], why }) : null;
  }

  /** Work in other rooms: carry held objects, fetch objects, open targets, bring parts. */
  private travel(): Act | null {
    const b = this.belief;
    const roomOf = (id: string) => b.whereabouts(id)?.room;
    for (const h of b.hands) {
      const task = h ? this.taskFor(h) : undefined;
      if (h && task?.target && b.located(task.target)) {
        const act = this.walkTo(roomOf(task.target), `carry ${h} to ${task.target}`);
        if (act) return act;
      }
    }
    for (const t of this.tasks) {
      if (!t.target || !b.located(t.target)) continue;
      const blocker = this.blockerOf(t.target);
      const act =
        (b.located(t.object) && !b.isHeld(t.object)
          ? this.walkTo(roomOf(t.object), `fetch ${t.object}`)
          : null) ?? (blocker ? this.walkTo(roomOf(blocker), `open ${blocker}`) : null);
      if (act) return act;
    }
    for (const atom of this.atoms) {
      if (b.holds(atom)) continue;
      if (atom.pred === "ASSEMBLED") {
        const act = this.bringTogether(atom.part, atom.target);
        if (act) return act;
      } else if (atom.pred !== "COUNT" && "node" in atom && b.located(atom.node)) {
        const act =
          atom.pred !== "CLOSED" || this.finished(atom.node)
            ? this.walkTo(roomOf(atom.node), `${atom.pred.toLowerCase()} ${atom.node}`)
            : null;
        if (act) return act;
      }
    }
    return null;
  }

  /** Carry an assembly part to its base's room and set it down there. */
  private bringTogether(part: string, base: string): Act | null {
    const b = this.belief;
    const baseRoom = b.whereabouts(base)?.room;
    const partRoom = b.whereabouts(part)?.room;
    if (!baseRoom || !partRoom || !b.located(part) || !b.located(base)) return null;
    if (b.isHeld(part))
      return baseRoom === b.room
        ? this.setDown(part)
        : this.walkTo(baseRoom, `carry ${part} to ${base}`);
    if (partRoom === baseRoom) return null;
    if (partRoom !== b.room) return this.walkTo(partRoom, `fetch ${part}`);
    if (!b.visible.has(part) || b.freeHands() === 0) return null;
    return this.allowed({ name: "grab", args: [part], why: `pick up ${part} for ${base}` });
  }

  /** Walk to the nearest room not visited in this round while goal nodes are unresolved. */
  private exploreElsewhere(): Act | null {
    if (this.unresolved().length === 0 && this.tasks.length === 0) return null;
    for (const room of this.belief.roomsByDistance()) {
      if (this.visited.has(room)) continue;
      const act = this.walkTo(room, `explore ${room}`);
      if (act) return act;
    }
    return null;
  }
}

/**
 * The observation-only explorer (never uses privileged access). `window: true` is
 * `explorer-window`: the same policy seeing only the appendix B payload (16-step window).
 */
export function explorerAgent(options: { window?: boolean } = {}): Agent {
  const window = options.window ?? false;
  return {
    id: window ? "explorer-window" : "explorer",
    start: () => new ExplorerSession(window),
  };
}

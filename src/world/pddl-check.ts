/**
 * A minimal reader and executor for the PDDL fragment exportPddl writes (STRIPS with typing,
 * negative preconditions and equality), so tests can check the exported text independently of
 * the exporter's data: it rejects any other construct, grounds actions by joining positive
 * preconditions against the state, applies effects (deletes before adds) and searches
 * breadth-first for optimal plan lengths.
 */

/** An s-expression: an atom (lower-cased, as PDDL is case-insensitive) or a list. */
export type SExp = string | SExp[];

/** A literal of a precondition, effect or goal. */
export interface PddlLiteral {
  pred: string;
  args: string[];
  neg: boolean;
}

/** A parsed action schema. */
export interface PddlSchema {
  name: string;
  params: { name: string; type: string }[];
  pre: PddlLiteral[];
  add: PddlLiteral[];
  del: PddlLiteral[];
}

/** A parsed domain + problem, with every object's type. */
export interface PddlProblem {
  requirements: string[];
  schemas: PddlSchema[];
  objects: Map<string, string>;
  parents: Map<string, string>;
  init: Set<string>;
  goal: PddlLiteral[];
}

/** One applicable ground action and the state it leads to. */
export interface GroundAction {
  name: string;
  args: string[];
  next: Set<string>;
}

const ALLOWED_REQUIREMENTS = [":strips", ":typing", ":negative-preconditions", ":equality"];

/** Parse text into its top-level s-expressions (`;` starts a comment). */
export function parseSexp(text: string): SExp[] {
  const tokens = text
    .replace(/;[^\n]*/g, " ")
    .replace(/([()])/g, " $1 ")
    .split(/\s+/)
    .filter((t) => t.length > 0);
  const stack: SExp[][] = [[]];
  for (const tok of tokens) {
    if (tok === "(") stack.push([]);
    else if (tok === ")") {
      const done = stack.pop();
      const top = stack[stack.length - 1];
      if (!done || !top) throw new Error("unbalanced ')'");
      top.push(done);
    } else (stack[stack.length - 1] as SExp[]).push(tok.toLowerCase());
  }
  if (stack.length !== 1) throw new Error("unbalanced '('");
  return stack[0] as SExp[];
}

/** The ground atom key `(pred a b)` used for states. */
export function atomKey(pred: string, args: readonly string[]): string {
  return `(${[pred, ...args].join(" ")})`;
}

function list(e: SExp | undefined, what: string): SExp[] {
  if (!Array.isArray(e)) throw new Error(`${what}: expected a list`);
  return e;
}

function word(e: SExp | undefined, what: string): string {
  if (typeof e !== "string") throw new Error(`${what}: expected a name`);
  return e;
}

/** A typed list `a b - t c - u` as [name, type] pairs. */
function typedList(items: SExp[], what: string): [string, string][] {
  const out: [string, string][] = [];
  let pending: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const w = word(items[i], what);
    if (w === "-") {
      const type = word(items[++i], what);
      for (const p of pending) out.push([p, type]);
      pending = [];
    } else pending.push(w);
  }
  for (const p of pending) out.push([p, "object"]);
  return out;
}

function section(def: SExp[], key: string): SExp[][] {
  return def.filter((e): e is SExp[] => Array.isArray(e) && e[0] === key);
}

function literal(e: SExp, what: string): PddlLiteral {
  const l = list(e, what);
  if (l[0] === "not") {
    if (l.length !== 2) throw new Error(`${what}: malformed not`);
    return { ...literal(l[1] as SExp, what), neg: true };
  }
  const pred = word(l[0], what);
  if (["and", "or", "forall", "exists", "when", "imply", "increase", "decrease"].includes(pred))
    throw new Error(`${what}: ${pred} is outside STRIPS`);
  return { pred, args: l.slice(1).map((a) => word(a, what)), neg: false };
}

function conjunction(e: SExp | undefined, what: string): PddlLiteral[] {
  const l = list(e, what);
  if (l[0] !== "and") return [literal(l, what)];
  return l.slice(1).map((x) => literal(x, what));
}

/** Parse and validate a domain and a problem of the exported fragment. */
export function loadPddl(domainText: string, problemText: string): PddlProblem {
  const [domain] = parseSexp(domainText);
  const [problem] = parseSexp(problemText);
  const d = list(domain, "domain");
  const p = list(problem, "problem");
  if (d[0] !== "define" || list(d[1], "domain")[0] !== "domain") throw new Error("not a domain");
  if (p[0] !== "define" || list(p[1], "problem")[0] !== "problem") throw new Error("not a problem");
  const domainName = word(list(d[1], "domain")[1], "domain name");
  const pDomain = section(p, ":domain")[0];
  if (pDomain?.[1] !== domainName) throw new Error("problem names another domain");
  const requirements = (section(d, ":requirements")[0] ?? []).slice(1).map((r) => word(r, "req"));
  for (const r of requirements)
    if (!ALLOWED_REQUIREMENTS.includes(r)) throw new Error(`requirement ${r} is not allowed`);
  const parents = new Map<string, string>(
    typedList((section(d, ":types")[0] ?? []).slice(1), "types"),
  );
  const objects = new Map<string, string>([
    ...typedList((section(d, ":constants")[0] ?? []).slice(1), "constants"),
    ...typedList((section(p, ":objects")[0] ?? []).slice(1), "objects"),
  ]);
  const arity = new Map<string, string[]>();
  for (const decl of (section(d, ":predicates")[0] ?? []).slice(1)) {
    const l = list(decl, "predicate");
    arity.set(
      word(l[0], "predicate"),
      typedList(l.slice(1), "predicate").map(([, t]) => t),
    );
  }
  const checkLit = (l: PddlLiteral, vars: Map<string, string>, what: string) => {
    if (l.pred === "=") {
      if (l.args.length !== 2) throw new Error(`${what}: = takes two terms`);
    } else {
      const types = arity.get(l.pred);
      if (!types) throw new Error(`${what}: undeclared predicate ${l.pred}`);
      if (types.length !== l.args.length) throw new Error(`${what}: arity of ${l.pred}`);
    }
    l.args.forEach((a, i) => {
      const type = a.startsWith("?") ? vars.get(a) : objects.get(a);
      if (!type) throw new Error(`${what}: unknown term ${a}`);
      const want = l.pred === "=" ? undefined : arity.get(l.pred)?.[i];
      if (want && !isA(parents, type, want) && !isA(parents, want, type))
        throw new Error(`${what}: ${a} cannot be a ${want}`);
    });
  };
  const schemas: PddlSchema[] = section(d, ":action").map((a) => {
    const name = word(a[1], "action");
    const field = (key: string) => a[a.indexOf(key) + 1];
    const params = typedList(list(field(":parameters"), name), name).map(([n, type]) => ({
      name: n,
      type,
    }));
    const vars = new Map(params.map((x) => [x.name, x.type]));
    const pre = conjunction(field(":precondition"), name);
    const eff = conjunction(field(":effect"), name);
    for (const l of [...pre, ...eff]) checkLit(l, vars, name);
    if (eff.some((l) => l.pred === "=")) throw new Error(`${name}: equality in an effect`);
    return {
      name,
      params,
      pre,
      add: eff.filter((l) => !l.neg),
      del: eff.filter((l) => l.neg),
    };
  });
  const init = new Set<string>();
  for (const e of (section(p, ":init")[0] ?? []).slice(1)) {
    const l = literal(e, "init");
    if (l.neg) throw new Error("init: negative atom");
    checkLit(l, new Map(), "init");
    init.add(atomKey(l.pred, l.args));
  }
  const goal = conjunction(section(p, ":goal")[0]?.[1], "goal");
  for (const l of goal) checkLit(l, new Map(), "goal");
  return { requirements, schemas, objects, parents, init, goal };
}

function isA(parents: Map<string, string>, type: string, want: string): boolean {
  for (let t: string | undefined = type, guard = 0; t && guard < 32; guard++) {
    if (t === want) return true;
    t = parents.get(t);
  }
  return want === "object";
}

/** Does the goal hold in a state. */
export function goalHolds(problem: PddlProblem, state: ReadonlySet<string>): boolean {
  return problem.goal.every((l) => state.has(atomKey(l.pred, l.args)) !== l.neg);
}

/** Every applicable ground action in a state, with its successor state. */
export function applicable(problem: PddlProblem, state: ReadonlySet<string>): GroundAction[] {
  const index = new Map<string, string[][]>();
  for (const key of state) {
    const [pred, ...args] = key.slice(1, -1).split(" ");
    const rows = index.get(pred as string) ?? [];
    rows.push(args);
    index.set(pred as string, rows);
  }
  const out: GroundAction[] = [];
  for (const schema of problem.schemas) {
    const positives = schema.pre.filter((l) => !l.neg && l.pred !== "=");
    const rest = schema.pre.filter((l) => l.neg || l.pred === "=");
    const bind = new Map<string, string>();
    const value = (t: string) => (t.startsWith("?") ? bind.get(t) : t);
    const search = (done: Set<PddlLiteral>): void => {
      if (done.size === positives.length) {
        emit();
        return;
      }
      // Join the literal with the most bound terms next.
      let best: PddlLiteral | undefined;
      let bestBound = -1;
      for (const l of positives) {
        if (done.has(l)) continue;
        const bound = l.args.filter((a) => value(a) !== undefined).length;
        if (bound > bestBound) {
          best = l;
          bestBound = bound;
        }
      }
      const lit = best as PddlLiteral;
      done.add(lit);
      for (const row of index.get(lit.pred) ?? []) {
        const fresh: string[] = [];
        let ok = true;
        lit.args.forEach((a, i) => {
          if (!ok) return;
          const v = value(a);
          if (v === undefined) {
            bind.set(a, row[i] as string);
            fresh.push(a);
          } else if (v !== row[i]) ok = false;
        });
        if (ok) search(done);
        for (const a of fresh) bind.delete(a);
      }
      done.delete(lit);
    };
    const emit = () => {
      const args: string[] = [];
      for (const p of schema.params) {
        const v = bind.get(p.name);
        if (v === undefined)
          throw new Error(`${schema.name}: ${p.name} is in no positive precondition`);
        if (!isA(problem.parents, problem.objects.get(v) ?? "", p.type)) return;
        args.push(v);
      }
      for (const l of rest) {
        const vals = l.args.map((a) => value(a) as string);
        const holds = l.pred === "=" ? vals[0] === vals[1] : state.has(atomKey(l.pred, vals));
        if (holds === l.neg) return;
      }
      const next = new Set(state);
      for (const l of schema.del)
        next.delete(
          atomKey(
            l.pred,
            l.args.map((a) => value(a) as string),
          ),
        );
      for (const l of schema.add)
        next.add(
          atomKey(
            l.pred,
            l.args.map((a) => value(a) as string),
          ),
        );
      out.push({ name: schema.name, args, next });
    };
    search(new Set());
  }
  return out;
}

/** A canonical key of a state. */
export function stateKey(state: ReadonlySet<string>): string {
  return [...state].sort().join("");
}

/** Optimal plan length by breadth-first search, or -1 when none within `limit` states. */
export function bfsPlanLength(problem: PddlProblem, limit = 200_000): number {
  let frontier: Set<string>[] = [problem.init];
  const seen = new Set([stateKey(problem.init)]);
  for (let depth = 0; frontier.length > 0 && seen.size < limit; depth++) {
    const next: Set<string>[] = [];
    for (const s of frontier) {
      if (goalHolds(problem, s)) return depth;
      for (const g of applicable(problem, s)) {
        const key = stateKey(g.next);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(g.next);
      }
    }
    frontier = next;
  }
  return -1;
}

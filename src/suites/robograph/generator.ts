/**
 * The seeded procedural generator of source scene graphs: one family specification and one
 * scene index give one latent scene G_0, its goal g and the roles interventions bind to
 * (staging surface, wrong container, blocker, I6 source). Only seeded Rng streams are used.
 */
import { LonghaulError, type Rng } from "../../core/index.ts";
import type { Goal, GoalAtom, SingleRobotScene, WorldEdge, WorldNode } from "../../world/index.ts";
import type { CountRange, FamilySpec, FixtureSpec, ObjectGroupSpec } from "./family-spec.ts";

/** A goal object a later event can copy (I6 inherited placement rule). */
export interface SourceObject {
  id: string;
  category: string;
  rel: "ON" | "INSIDE";
  target: string;
  /** A fresh name for the added copy. */
  spareName: string;
}

/** Node ids interventions rewrite around. */
export interface SceneRoles {
  staging: string;
  wrong: string | null;
  blocker: { id: string; surface: string } | null;
  source: SourceObject | null;
  /** Capacity-bound I6: the designated container, the overflow container and the category. */
  capacity: { container: string; overflow: string; category: string; spareName: string } | null;
}

/**
 * One generated source scene. RoboGraph scenes have one two-handed robot, written in the
 * engine's single-robot shorthand, which keeps the compiled payloads (and the suite's content
 * hash) as they were before the engine took several robots.
 */
export interface GeneratedScene {
  scene: SingleRobotScene;
  goal: Goal;
  roles: SceneRoles;
}

/** Draw a count from a fixed number or an inclusive range. */
export function drawCount(rng: Rng, count: CountRange): number {
  return Array.isArray(count) ? rng.range(count[0], count[1]) : count;
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

const lastWord = (name: string) => name.trim().split(/\s+/).at(-1) ?? name;

/** Builds one scene; ids are unique slugs of node names. */
class SceneBuilder {
  readonly nodes: WorldNode[] = [];
  readonly edges: WorldEdge[] = [];
  private readonly used = new Set<string>();

  id(name: string): string {
    const base = slug(name) || "node";
    let id = base;
    for (let k = 2; this.used.has(id); k++) id = `${base}_${k}`;
    this.used.add(id);
    return id;
  }

  add(node: WorldNode, edge?: Omit<WorldEdge, "from">): string {
    this.nodes.push(node);
    if (edge) this.edges.push({ from: node.id, ...edge });
    return node.id;
  }
}

interface FixtureState {
  spec: FixtureSpec;
  id: string;
  room: string;
  /** Objects placed here so far (capacity bookkeeping). */
  load: number;
  /** Hidden from view in G_0: a closed container or inside one. */
  closed: boolean;
  /** Misplaced goal objects standing directly here, not yet behind an occluder. */
  looseObjects: string[];
}

function fixtureRel(parent: FixtureSpec): "ON" | "INSIDE" {
  return parent.kind === "surface" ? "ON" : "INSIDE";
}

/** Generate one source scene of a family from its own seeded stream. */
export function generateScene(family: FamilySpec, rng: Rng): GeneratedScene {
  const b = new SceneBuilder();
  const roomIds = new Map<string, string>();
  for (const room of family.rooms)
    roomIds.set(
      room,
      b.add({
        id: b.id(room),
        type: "room",
        name: room,
        category: "room",
        affordances: [],
        attrs: {},
      }),
    );
  const adjacency =
    family.adjacent ??
    family.rooms.slice(1).map((r, i) => [family.rooms[i] as string, r] as [string, string]);
  for (const [a, c] of adjacency)
    b.edges.push({ from: roomIds.get(a) as string, to: roomIds.get(c) as string, rel: "ADJACENT" });

  const fixtures = new Map<string, FixtureState>();
  const atoms: GoalAtom[] = [];
  const keepAtoms: GoalAtom[] = [];
  for (const spec of family.fixtures) {
    const parentKey = Array.isArray(spec.on) ? rng.pick(spec.on) : spec.on;
    const parent = parentKey ? fixtures.get(parentKey) : undefined;
    const room = parent?.room ?? roomIds.get(spec.room ?? (family.rooms[0] as string)) ?? "";
    const node: WorldNode = {
      id: b.id(spec.name),
      type: spec.kind,
      name: spec.name,
      category: lastWord(spec.name),
      affordances:
        spec.kind === "surface"
          ? ["support"]
          : spec.openable
            ? ["contain", "openable"]
            : ["contain"],
      attrs: spec.openable ? { open: spec.open } : {},
      ...(spec.capacity !== undefined ? { capacity: spec.capacity } : {}),
    };
    const edge = parent
      ? { to: parent.id, rel: fixtureRel(parent.spec) }
      : { to: room, rel: "IN_ROOM" as const };
    b.add(node, edge);
    if (parent) parent.load++;
    fixtures.set(spec.key, {
      spec,
      id: node.id,
      room,
      load: 0,
      closed: (parent?.closed ?? false) || (spec.openable && !spec.open),
      looseObjects: [],
    });
    if (spec.mustClose) atoms.push({ pred: "CLOSED", node: node.id });
    // A satisfied fact about a node hidden in G_0 would tell the agent where it is: none.
    if (spec.keep && parent && !parent.closed)
      keepAtoms.push(
        parent.spec.kind === "surface"
          ? { pred: "ON", object: node.id, target: parent.id }
          : { pred: "INSIDE", object: node.id, target: parent.id },
      );
  }

  const fixture = (key: string): FixtureState => {
    const f = fixtures.get(key);
    if (!f)
      throw new LonghaulError("INVALID_INPUT", `unknown fixture ${key}`, `family ${family.id}`);
    return f;
  };
  const hasRoom = (f: FixtureState) => f.spec.capacity === undefined || f.load < f.spec.capacity;
  const put = (id: string, f: FixtureState) => {
    b.edges.push({ from: id, to: f.id, rel: f.spec.kind === "surface" ? "ON" : "INSIDE" });
    f.load++;
  };

  const placements: GoalAtom[] = [];
  const assemblies: GoalAtom[] = [];
  const sources: SourceObject[] = [];
  let capacity: SceneRoles["capacity"] = null;
  family.objects.forEach((group) => {
    const n = drawCount(rng, group.count);
    const placed = Math.min(n, drawCount(rng, group.placed));
    const names = rng.sample(group.names, n);
    const spare =
      group.names.find((name) => !names.includes(name)) ??
      `spare ${lastWord(names[0] ?? group.category)}`;
    const hiddenWanted = group.hidden === undefined ? -1 : drawCount(rng, group.hidden);
    let hiddenLeft = hiddenWanted;
    // Figure 1b: the group's hidden objects share one of the closed candidates in `from`,
    // drawn per scene; the other candidates hide none of them (decoys unless used otherwise).
    const closedFrom = group.from.map(fixture).filter((f) => f.closed);
    const home = hiddenWanted > 0 && closedFrom.length > 0 ? rng.pick(closedFrom) : null;
    names.forEach((name, k) => {
      const id = b.id(name);
      const node: WorldNode = {
        id,
        type: "object",
        name,
        category: group.category,
        affordances: ["grabbable"],
        attrs: group.part ? { assembled: false } : {},
      };
      b.nodes.push(node);
      const target = group.goal ? fixture(group.goal.target) : null;
      let at: FixtureState;
      if (k < placed && target && !target.closed) at = target;
      else at = pickStart(rng, group, fixture, hasRoom, hiddenLeft > 0, home);
      const misplaced = at !== target;
      if (at.closed && misplaced) hiddenLeft--;
      put(id, at);
      if (group.goal && misplaced) at.looseObjects.push(id);
      if (group.goal && target) {
        placements.push({ pred: group.goal.rel, object: id, target: target.id });
        if (misplaced)
          sources.push({
            id,
            category: group.category,
            rel: group.goal.rel,
            target: target.id,
            spareName: spare,
          });
      }
      if (group.part) {
        const partName = `${name} ${group.part.name}`;
        const partId = b.id(partName);
        b.nodes.push({
          id: partId,
          type: "part",
          name: partName,
          category: group.part.category,
          affordances: ["grabbable", "attachable"],
          attrs: { assembled: false },
          compatible: [id],
        });
        put(partId, pickStart(rng, group, fixture, hasRoom, false));
        assemblies.push({ pred: "ASSEMBLED", part: partId, target: id });
      }
    });
    if (
      family.addedObject.mode === "capacity" &&
      group.goal?.target === family.addedObject.container &&
      capacity === null
    )
      capacity = {
        container: fixture(family.addedObject.container).id,
        overflow: fixture(family.addedObject.overflow).id,
        category: group.category,
        spareName: spare,
      };
  });

  let blocker: SceneRoles["blocker"] = null;
  if (family.occluders) {
    const spec = family.occluders;
    const c = drawCount(rng, spec.count);
    const decoys = drawCount(rng, spec.decoys);
    const names = rng.sample(spec.names, Math.min(c + decoys, spec.names.length));
    names.forEach((name, k) => {
      const decoy = k >= c;
      const candidates = spec.on.map(fixture);
      const withTargets = candidates.filter((f) => f.looseObjects.length > 0);
      const f = rng.pick(withTargets.length > 0 && !decoy ? withTargets : candidates);
      const id = b.add(
        {
          id: b.id(name),
          type: "object",
          name,
          category: "clutter",
          affordances: ["movable"],
          attrs: { moved_aside: false },
        },
        { to: f.id, rel: f.spec.kind === "surface" ? "ON" : "INSIDE" },
      );
      const hides = decoy
        ? []
        : rng.sample(f.looseObjects, Math.min(f.looseObjects.length, drawCount(rng, spec.hides)));
      for (const t of hides) {
        b.edges.push({ from: id, to: t, rel: "OCCLUDES" });
        f.looseObjects.splice(f.looseObjects.indexOf(t), 1);
      }
      if (!decoy) blocker ??= { id, surface: f.id };
    });
  }

  const staging = family.fixtures.find((x) => x.staging) as FixtureSpec;
  const insideTargets = new Set(
    family.objects.flatMap((g) => (g.goal?.rel === "INSIDE" ? [g.goal.target] : [])),
  );
  const wrongSpec =
    family.fixtures.find((x) => x.wrong) ??
    family.fixtures.find(
      (x) => x.kind === "container" && !insideTargets.has(x.key) && (!x.openable || x.open),
    );
  const startRoom = roomIds.get(family.start ?? (family.rooms[0] as string)) as string;
  return {
    scene: {
      nodes: b.nodes,
      edges: b.edges,
      robot: { room: startRoom, hands: [null, null] },
      navigation: family.domain === "indoor",
    },
    goal: { all: [...placements, ...assemblies, ...atoms, ...keepAtoms] },
    roles: {
      staging: fixture(staging.key).id,
      wrong: wrongSpec ? fixture(wrongSpec.key).id : null,
      blocker,
      source: sources.length > 0 ? rng.pick(sources) : null,
      capacity,
    },
  };
}

function pickStart(
  rng: Rng,
  group: ObjectGroupSpec,
  fixture: (key: string) => FixtureState,
  hasRoom: (f: FixtureState) => boolean,
  wantHidden: boolean,
  home: FixtureState | null = null,
): FixtureState {
  const options = group.from.map(fixture).filter(hasRoom);
  if (options.length === 0)
    throw new LonghaulError(
      "INVALID_INPUT",
      `no start fixture with free capacity for ${group.category}`,
      "objects.from",
    );
  if (group.hidden === undefined) return rng.pick(options);
  if (wantHidden && home && hasRoom(home)) return home;
  const pool = options.filter((f) => f.closed === wantHidden);
  return rng.pick(pool.length > 0 ? pool : options);
}

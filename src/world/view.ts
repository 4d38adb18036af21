/**
 * View projection O(G_t, h_t) (RoboGraph Eq. 8-9) for one robot: the visible nodes, the
 * relations among them, their observable attributes (ρ: open, assembled, pressed, is_full, and
 * any other attribute except moved_aside) and the robot's last action's feedback (φ). Other
 * robots in the room are visible nodes. Nothing outside the current view is carried forward.
 */
import { ASSEMBLED, LOC_REL, Loc, MOVED_ASIDE, OPEN, PRESSED, type WorldState } from "./state.ts";
import type { ActionFeedback, ViewNode, WorldView } from "./types.ts";

/** Attributes with a fixed place in the view (Figure 11); moved_aside is never shown. */
const CORE = OPEN | ASSEMBLED | PRESSED | MOVED_ASIDE;

/** Project the latent state into robot `r`'s view graph (`vis`: its visibility, if known). */
export function projectView(
  state: WorldState,
  r: number,
  step: number,
  lastAction: ActionFeedback | null,
  vis: readonly boolean[] = state.visibility(r),
): WorldView {
  const self = state.robotNode(r);
  const nodes: ViewNode[] = [];
  const edges: WorldView["visible_edges"] = [];
  for (let i = 0; i < vis.length; i++) {
    if (!vis[i] || i === self) continue;
    const node = (state.info[i] as NonNullable<(typeof state.info)[number]>).node;
    const view: ViewNode = {
      id: node.id,
      name: node.name,
      category: node.category,
      type: node.type,
    };
    const has = state.has[i] ?? 0;
    const val = state.val[i] ?? 0;
    if (has & OPEN) view.open = (val & OPEN) !== 0;
    if (has & ASSEMBLED) view.assembled = (val & ASSEMBLED) !== 0;
    if (has & PRESSED) view.pressed = (val & PRESSED) !== 0;
    if (node.capacity !== undefined) view.is_full = state.isFull(i);
    if (has & ~CORE) {
      const attrs: Record<string, boolean> = {};
      for (const [name, bit] of state.attrBits)
        if (has & bit & ~CORE) attrs[name] = (val & bit) !== 0;
      view.attrs = attrs;
    }
    nodes.push(view);
    const p = state.parent[i] ?? -1;
    const rel = state.rel[i] ?? Loc.None;
    if (p < 0 || !vis[p] || rel === Loc.None) continue;
    // What another robot holds shows as its HELD edge; the robot's own hands are listed below.
    if (rel !== Loc.Held)
      edges.push({ from: node.id, to: state.ids[p] as string, relation: LOC_REL[rel] });
    else if (p !== self)
      edges.push({ from: state.ids[p] as string, to: node.id, relation: "HELD" });
  }
  for (const [b, t] of state.occludes)
    if (vis[b] && vis[t])
      edges.push({
        from: state.ids[b] as string,
        to: state.ids[t] as string,
        relation: "OCCLUDES",
      });
  const id = (i: number) => (i >= 0 ? (state.ids[i] as string) : null);
  const hands = state.hands[r] ?? [];
  const room = state.robotRoom(r);
  const robot: WorldView["robot"] = {
    hands:
      hands.length === 2
        ? { left: id(hands[0] as number), right: id(hands[1] as number) }
        : hands.map(id),
    navigation_enabled: state.navigation,
    current_room: state.ids[room] as string,
    adjacent_rooms: state.adjacentRooms(room).map((q) => state.ids[q] as string),
  };
  return {
    step,
    visible_nodes: nodes,
    visible_edges: edges,
    held_objects: hands
      .filter((h) => h >= 0)
      .map((h) => ({ id: state.ids[h] as string, name: state.info[h]?.node.name ?? "" })),
    robot: state.robots.length > 1 ? { id: state.ids[self] as string, ...robot } : robot,
    last_action: lastAction,
  };
}

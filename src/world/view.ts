/**
 * View projection O(G_t, h_t) (RoboGraph Eq. 8-9): the visible nodes, the relations among them,
 * their observable attributes (ρ: open, assembled, pressed, is_full) and the last action's
 * feedback (φ). Nothing outside the current view is carried forward.
 */
import { LOC_REL, Loc, type WorldState } from "./state.ts";
import type { ActionFeedback, ViewNode, WorldView } from "./types.ts";

/** Project the latent state into the agent's view graph. */
export function projectView(
  state: WorldState,
  step: number,
  lastAction: ActionFeedback | null,
): WorldView {
  const vis = state.visibility();
  const nodes: ViewNode[] = [];
  const edges: WorldView["visible_edges"] = [];
  for (let i = 0; i < vis.length; i++) {
    if (!vis[i]) continue;
    const node = (state.info[i] as NonNullable<(typeof state.info)[number]>).node;
    const view: ViewNode = {
      id: node.id,
      name: node.name,
      category: node.category,
      type: node.type,
    };
    if (state.hasAttr(i, "open")) view.open = state.attr(i, "open");
    if (state.hasAttr(i, "assembled")) view.assembled = state.attr(i, "assembled");
    if (state.hasAttr(i, "pressed")) view.pressed = state.attr(i, "pressed");
    if (node.capacity !== undefined) view.is_full = state.isFull(i);
    nodes.push(view);
    const p = state.parent[i] ?? -1;
    const rel = state.rel[i] ?? Loc.None;
    if (p >= 0 && vis[p] && rel !== Loc.None && rel !== Loc.Held)
      edges.push({ from: node.id, to: state.ids[p] as string, relation: LOC_REL[rel] });
  }
  for (const [b, t] of state.occludes)
    if (vis[b] && vis[t])
      edges.push({
        from: state.ids[b] as string,
        to: state.ids[t] as string,
        relation: "OCCLUDES",
      });
  const id = (i: number) => (i >= 0 ? (state.ids[i] as string) : null);
  const held = state.hands.filter((h) => h >= 0);
  return {
    step,
    visible_nodes: nodes,
    visible_edges: edges,
    held_objects: held.map((h) => ({
      id: state.ids[h] as string,
      name: state.info[h]?.node.name ?? "",
    })),
    robot: {
      hands: { left: id(state.hands[0]), right: id(state.hands[1]) },
      navigation_enabled: state.navigation,
      current_room: state.ids[state.room] as string,
      adjacent_rooms: state.adjacentRooms().map((r) => state.ids[r] as string),
    },
    last_action: lastAction,
  };
}

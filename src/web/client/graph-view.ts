/**
 * A scene graph frame as SVG: a tree of locations growing to the right (graph-layout.ts), the
 * nodes the agent sees filled and outlined, the hidden ones grey and dashed, the goal's nodes
 * with an orange rim; side relations (adjacency, occlusion) as dashed arcs.
 */
import type { GraphFrame } from "../../core/index.ts";
import { COLUMN, layoutGraph, ROW } from "../model/graph-layout.ts";
import { h, s } from "./dom.ts";

/** Box width: the rest of a column is the link, with room for its relation's name. */
const BOX_WIDTH = COLUMN - 52;
const BOX_HEIGHT = ROW - 6;
const PAD = 10;

/** The frame drawn, with a legend. */
export function graphView(frame: GraphFrame, title: string): HTMLElement {
  const layout = layoutGraph(frame);
  const visible = frame.nodes.filter((n) => n.visible).length;
  const svg = s("svg", {
    width: layout.width + 2 * PAD,
    height: layout.height + 2 * PAD,
    role: "img",
    "aria-label": title,
    id: "scene-graph",
  });
  const g = s("g", { transform: `translate(${PAD},${PAD})` });
  svg.appendChild(g);
  for (const link of layout.links) {
    const x1 = link.from.x + BOX_WIDTH;
    const y1 = link.from.y + BOX_HEIGHT / 2;
    const x2 = link.to.x;
    const y2 = link.to.y + BOX_HEIGHT / 2;
    const stroke = link.visible ? "#2f6fb3" : "#c5c5c5";
    if (link.tree) {
      // The elbow turns near the parent; the relation's name sits on the run into the child.
      const mid = x1 + 10;
      g.appendChild(
        s("path", {
          d: `M${x1} ${y1}H${mid}V${y2}H${x2}`,
          fill: "none",
          stroke,
          "stroke-width": 1,
        }),
      );
      if (link.label && link.label !== "IN_ROOM") {
        g.appendChild(
          s(
            "text",
            { x: x2 - 3, y: y2 - 3, fill: "#888", class: "rel", "text-anchor": "end" },
            link.label.toLowerCase(),
          ),
        );
      }
    } else {
      // Side relations curve to the right of both boxes.
      const right = Math.max(x1, link.to.x + BOX_WIDTH) + 14;
      const ya = link.from.y + BOX_HEIGHT / 2;
      g.appendChild(
        s(
          "path",
          {
            d: `M${link.from.x + BOX_WIDTH} ${ya}C${right} ${ya} ${right} ${y2} ${link.to.x + BOX_WIDTH} ${y2}`,
            fill: "none",
            stroke: link.visible ? "#9b59b6" : "#d8c8e0",
            "stroke-dasharray": "4 3",
          },
          s("title", {}, `${link.from.id} ${link.label} ${link.to.id}`),
        ),
      );
    }
  }
  for (const n of layout.nodes) {
    const label = n.state ? `${n.label} (${n.state})` : n.label;
    const box = s(
      "g",
      {
        transform: `translate(${n.x},${n.y})`,
        class: n.visible ? "node visible" : "node hidden",
        "data-id": n.id,
      },
      s(
        "title",
        {},
        `${n.id} · ${n.kind ?? "node"}${n.state ? ` · ${n.state}` : ""}${n.visible ? " · visible" : " · hidden"}`,
      ),
      s("rect", {
        width: BOX_WIDTH,
        height: BOX_HEIGHT,
        rx: n.kind === "room" ? 2 : 8,
        fill: n.visible ? "#e6effa" : "#f3f3f3",
        stroke: n.marked ? "#d9822b" : n.visible ? "#2f6fb3" : "#aaa",
        "stroke-width": n.marked ? 2.5 : 1.5,
        "stroke-dasharray": n.visible ? "" : "4 3",
      }),
      s(
        "text",
        {
          x: 6,
          y: BOX_HEIGHT / 2 + 4,
          fill: n.visible ? "#1d1d1f" : "#888",
          "font-weight": n.kind === "room" ? 700 : 400,
        },
        label.length > 22 ? `${label.slice(0, 21)}…` : label,
      ),
    );
    g.appendChild(box);
  }
  return h(
    "div",
    { class: "panel" },
    h(
      "h3",
      null,
      title,
      h("span", { class: "muted small" }, ` · ${visible} of ${frame.nodes.length} nodes visible`),
    ),
    h(
      "div",
      { class: "legend" },
      h("span", { class: "visible" }, "visible to the agent"),
      h("span", { class: "hidden" }, "hidden (latent)"),
      h("span", { class: "marked" }, "named by the goal"),
    ),
    h("div", { class: "graph" }, svg),
  );
}

/** Validation of low-level commands and poses shared by the families' tools. */
import type { GripperCommand } from "../../physics/index.ts";
import { ToolRefusal } from "./world.ts";

/** A finite number at `path`, or a refusal naming it. */
export function readNumber(value: unknown, path: string, lo = -Infinity, hi = Infinity): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < lo || value > hi) {
    throw new ToolRefusal("bad-arguments", `must be a number in [${lo}, ${hi}]`, path);
  }
  return value;
}

/** An [x, y, z] position inside the workspace box (metres). */
export function readPosition(value: unknown, path: string): [number, number, number] {
  if (!Array.isArray(value) || value.length !== 3) {
    throw new ToolRefusal("bad-arguments", "must be [x, y, z] in metres", path);
  }
  return [
    readNumber(value[0], `${path}[0]`, -1, 1),
    readNumber(value[1], `${path}[1]`, -1, 1),
    readNumber(value[2], `${path}[2]`, 0, 1),
  ];
}

/** A pose `{pos, yaw?}`; a missing yaw keeps the current one. */
export function readPose(
  args: Record<string, unknown>,
  current: { yaw: number },
  prefix = "",
): { pos: [number, number, number]; yaw: number } {
  return {
    pos: readPosition(args.pos, `${prefix}pos`),
    yaw: args.yaw === undefined ? current.yaw : readNumber(args.yaw, `${prefix}yaw`, -7, 7),
  };
}

/** A gripper command `{pos?, yaw?, grip?}` under `key`; missing fields keep their values. */
export function readGripperCommand(
  args: Record<string, unknown>,
  current: GripperCommand,
  key: string,
): GripperCommand {
  const raw = args[key];
  if (raw === undefined) return current;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ToolRefusal("bad-arguments", "must be an object {pos?, yaw?, grip?}", key);
  }
  const c = raw as Record<string, unknown>;
  return {
    pos: c.pos === undefined ? current.pos : readPosition(c.pos, `${key}.pos`),
    yaw: c.yaw === undefined ? current.yaw : readNumber(c.yaw, `${key}.yaw`, -7, 7),
    grip: c.grip === undefined ? current.grip : readNumber(c.grip, `${key}.grip`, 0, 1),
  };
}

/** JSON Schema of a gripper command. */
export const GRIPPER_COMMAND_SCHEMA = {
  type: "object",
  description: "palm target (metres, radians) and finger closure 0 (open) to 1 (closed)",
  properties: {
    pos: { type: "array", items: { type: "number" }, minItems: 3, maxItems: 3 },
    yaw: { type: "number" },
    grip: { type: "number", minimum: 0, maximum: 1 },
  },
  additionalProperties: false,
} as const;

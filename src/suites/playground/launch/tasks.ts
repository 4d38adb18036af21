/**
 * Realized launcher scenes: a scene file under one of the four conditions of §5.2 (spring
 * stiffness 22, 24, 26, 28 N/m with prescribed launcher and ammunition offsets).
 */
import { LAUNCHER } from "./launcher.ts";
import type { LaunchSceneFile } from "./scene.ts";

/** §5.2 spring stiffness of each condition (N/m). */
export const SPRING_STIFFNESS = [22, 24, 26, 28] as const;
/** Prescribed launcher base offsets of each condition (metres, in the world frame). */
export const LAUNCHER_OFFSETS = [
  [0, 0],
  [0.03, -0.02],
  [-0.02, 0.03],
  [0.02, 0.02],
] as const;
/** Prescribed ammunition tray offsets of each condition (metres, in the launcher frame). */
export const AMMO_OFFSETS = [
  [0, 0],
  [0.01, 0],
  [0, 0.01],
  [-0.01, -0.01],
] as const;

/** A scene file under one condition. */
export interface LaunchScene {
  file: LaunchSceneFile;
  condition: number;
  k: number;
  base: { x: number; y: number; yaw: number };
  /** Marble positions in the tray (the marbles after the preloaded one). */
  traySlots: [number, number, number][];
  gripperHome: [number, number, number];
}

export function launchScene(file: LaunchSceneFile, condition: number): LaunchScene {
  const [ox, oy] = LAUNCHER_OFFSETS[condition]!;
  const [ax, ay] = AMMO_OFFSETS[condition]!;
  const yaw = file.launcher.yaw;
  const base = { x: file.launcher.pos[0] + ox, y: file.launcher.pos[1] + oy, yaw };
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  const toWorld = (lx: number, ly: number): [number, number] => [
    base.x + lx * c - ly * s,
    base.y + lx * s + ly * c,
  ];
  const [fx, fy, fz] = LAUNCHER.tray.first;
  const traySlots = Array.from({ length: file.ammo - 1 }, (_, i) => {
    const [x, y] = toWorld(fx + ax + i * LAUNCHER.tray.spacing, fy + ay);
    return [x, y, fz] as [number, number, number];
  });
  const [hx, hy] = toWorld(fx + ax, fy + ay);
  return {
    file,
    condition,
    k: SPRING_STIFFNESS[condition]!,
    base,
    traySlots,
    gripperHome: [hx, hy, 0.35],
  };
}

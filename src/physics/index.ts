/** Public surface of the physics layer: MuJoCo (WebAssembly) simulations and floating grippers. */
export * from "./gripper.ts";
export * from "./mjcf.ts";
export * from "./mujoco.ts";

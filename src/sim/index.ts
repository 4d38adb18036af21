/**
 * The discrete-event executor (MAGMA's simulator): a simulated clock, a future-event list
 * ordered by (time, id), durative seeded skills on a world-engine World, one skill per robot,
 * cancel, event batches, frozen faults and the user channel. See docs/magma.md.
 */
export { EventQueue, type Scheduled } from "./event-queue.ts";
export {
  DEFAULT_DURATIONS,
  type DurationModel,
  type Fault,
  type RejectReason,
  type Running,
  type SimEvent,
  type SimHooks,
  Simulator,
  type SkillCall,
} from "./simulator.ts";

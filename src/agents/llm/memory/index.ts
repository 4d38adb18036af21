/** The llm agent's state-tracking strategies (`--memory`) and the state manager. */
export { ExplicitState, STATE_TOOLS } from "./explicit-state.ts";
export {
  DISPATCHER_INSTRUCTIONS,
  goalStateText,
  MANAGER_INSTRUCTIONS,
  type ManagerSetup,
  STATE_HEADING,
  StateManager,
  stateBlock,
} from "./state-manager.ts";
export {
  lastTurns,
  MEMORY_STRATEGIES,
  MemoryOption,
  type MemoryStrategy,
  parseMemory,
  replacesHistory,
} from "./strategy.ts";

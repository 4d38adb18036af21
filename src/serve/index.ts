/**
 * Public surface of serving: the HTTP/WebSocket server (OpenEnv's protocol, episodes over HTTP,
 * MCP per episode), the episode hub they share, stdio MCP, and the served wire schemas.
 */
export {
  accessOf,
  decisionOf,
  EpisodeHub,
  type HubOptions,
  LiveEpisode,
  type OpenRequest,
  type StepOutcome,
} from "./episodes.ts";
export {
  type HubSettings,
  isLoopback,
  openHub,
  type RunningServer,
  type ServeOptions,
  startServer,
} from "./http-server.ts";
export { McpEndpoint, mcpServerFor, serveStdio } from "./mcp.ts";
export { errorDataOf, openRequestOf, serveSocket } from "./openenv.ts";
export { SERVED_AGENT, ServedRun, type ServedRunSettings, ServedRuns } from "./served-runs.ts";
export { type ServedSuite, ServedSuites, type TaskRow } from "./served-suites.ts";
export * from "./wire.ts";

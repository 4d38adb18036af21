/** Local provider stubs for tests and benchmarks: OpenAI and Anthropic wire formats, agent servers. */
export {
  type AgentServer,
  startAgentServer,
  startScriptedAgent,
} from "./agent-server.ts";
export { type AnthropicReply, startAnthropicStub } from "./anthropic-stub.ts";
export { FIXTURE_CARD, fixtureContext, fixtureObservation } from "./episode-fixture.ts";
export { type OpenAiReply, startOpenAiStub } from "./openai-stub.ts";
export {
  RawText,
  type RecordedRequest,
  type StubError,
  type StubHang,
  type StubOptions,
  type StubServer,
  type StubStep,
} from "./scripted-server.ts";

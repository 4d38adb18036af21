/** Local provider stubs for tests and benchmarks: OpenAI and Anthropic wire formats. */
export { type AnthropicReply, startAnthropicStub } from "./anthropic-stub.ts";
export { FIXTURE_CARD, fixtureContext, fixtureObservation } from "./episode-fixture.ts";
export { type OpenAiReply, startOpenAiStub } from "./openai-stub.ts";
export type {
  RecordedRequest,
  StubError,
  StubHang,
  StubOptions,
  StubServer,
  StubStep,
} from "./scripted-server.ts";

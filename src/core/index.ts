/** Public surface of the protocol: wire types, suite and agent interfaces, seeds, hashing. */
export * from "./agent.ts";
export * from "./agent-factory.ts";
export * from "./errors.ts";
export * from "./hash.ts";
export * from "./inspection.ts";
export * from "./json.ts";
export * from "./json-schema.ts";
export * from "./lazy-json.ts";
export * from "./limiter.ts";
export * from "./protocol.ts";
export * from "./redact.ts";
export * from "./report-model.ts";
export * from "./rng.ts";
export * from "./suggest.ts";
export * from "./suite.ts";
export * from "./usage.ts";

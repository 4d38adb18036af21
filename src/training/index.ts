/** Training data from runs and generators: next-decision rows, their formats and the writer. */
export {
  AuthorsLineEncoder,
  AuthorsRow,
  authorsRow,
  DEFAULT_ROBOT,
  targetOf,
} from "./authors-row.ts";
export {
  type ExportSftOptions,
  type ExportSftResult,
  exportSft,
  parseMinScore,
} from "./export-run.ts";
export { ChatLineEncoder, OpenAiChatRow, openAiChatRow } from "./openai-chat.ts";
export { type DecisionSample, samplesOfTrace } from "./sample.ts";
export { type Split, splitOf } from "./split.ts";
export { startModuleWorker } from "./worker-thread.ts";
export {
  manifestPath,
  type RenderedBatch,
  type RenderedSample,
  ROW_FORMATS,
  type RowFormat,
  rowFilePath,
  SftWriter,
  type WriterOptions,
  type WriterSummary,
  type WrittenFile,
  writeManifest,
} from "./writer.ts";

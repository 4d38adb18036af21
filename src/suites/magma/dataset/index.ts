/** MAGMA-Bench's training set (§4.4): off-policy expert traces as augmented next-decision rows. */
export {
  disjointFingerprint,
  evaluationFingerprints,
  type Fingerprints,
  taskFingerprint,
} from "./disjoint.ts";
export {
  checkTrainingSeed,
  type DatasetOptions,
  type DatasetProgress,
  type DatasetResult,
  DEFAULT_DATASET_SEED,
  GENERATOR_VERSION,
  generateMagmaDataset,
  groupOf,
  PAPER_ROWS,
  targetSourceRows,
  taskSamples,
  VARIANTS,
  type Variant,
} from "./generate.ts";
export { paraphrase } from "./paraphrase.ts";
export {
  type RenameMap,
  renameAction,
  renameCard,
  renameMap,
  renameStep,
  renameText,
} from "./rename.ts";
export { MIN_DECISIONS, TRAINING_FAMILIES, type TrainingTask, trainingTask } from "./tasks.ts";

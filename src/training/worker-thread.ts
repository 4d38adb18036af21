/** Starting a module as a worker thread, from the sources (through tsx) or from the build. */
import { Worker } from "node:worker_threads";

/**
 * Start the worker module `name` (without extension) beside `from` (an import.meta.url): the
 * .ts file through tsx when running from sources, the .js file when built.
 */
export function startModuleWorker(from: string, name: string, workerData: unknown): Worker {
  if (from.endsWith(".ts")) {
    const url = new URL(`./${name}.ts`, from).href;
    const code = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(from)}))`;
    return new Worker(code, { eval: true, workerData });
  }
  return new Worker(new URL(`./${name}.js`, from), { workerData });
}

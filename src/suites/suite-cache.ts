/**
 * The on-disk cache of compile products (specs, listings, statistics). A value is stored
 * under a key made of everything that determines it: the suite id, the content of the suite's
 * source files (so any code change, a version bump included, recompiles), the versions of
 * longhaul's runtime dependencies, the compile options, and the content of every file a
 * compile option names.
 * A file that does not parse, or holds another key, is ignored and rewritten.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
// The hash file, not the core index: a warm `longhaul list` must not load the wire schemas.
import { canonicalJson, sha256 } from "../core/hash.ts";
import type { CompileOptions } from "../core/index.ts";

/** The user cache directory: LONGHAUL_CACHE_DIR, else $XDG_CACHE_HOME/longhaul, else ~/.cache. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LONGHAUL_CACHE_DIR) return env.LONGHAUL_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "longhaul");
}

const fingerprints = new Map<string, string>();

/** Files that cannot change what a suite compiles: tests and type declarations. */
const NOT_CODE = /\.(test\.ts|d\.ts)$/;

/** Every file under `path` (or `path` itself) but tests and declarations, sorted. */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !NOT_CODE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** sha256 over the relative paths and contents of every file under `paths`. */
export function hashSources(paths: readonly string[]): string {
  const hash = createHash("sha256");
  for (const root of paths) {
    for (const file of filesUnder(root)) {
      hash
        .update(`${relative(root, file)}\0`)
        .update(readFileSync(file))
        .update("\0");
    }
  }
  return hash.digest("hex");
}

/** hashSources, once per process: a process runs the code it loaded, whatever changes later. */
export function sourcesFingerprint(paths: readonly string[]): string {
  const id = paths.join("\0");
  let fingerprint = fingerprints.get(id);
  if (fingerprint === undefined) {
    fingerprint = hashSources(paths);
    fingerprints.set(id, fingerprint);
  }
  return fingerprint;
}

/** The package root: the directory above src/ (or dist/) that holds package.json. */
const PACKAGE_ROOT = join(import.meta.dirname, "..", "..");
let dependencies: Record<string, string> | undefined;

/** Installed versions of longhaul's runtime dependencies (e.g. a tokenizer changes counts). */
function dependencyVersions(): Record<string, string> {
  if (dependencies) return dependencies;
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const names = Object.keys(
    (read(join(PACKAGE_ROOT, "package.json")).dependencies as object) ?? {},
  );
  dependencies = {};
  for (const name of names) {
    // Node's own lookup: node_modules of the package, then of each directory above it.
    for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
      const file = join(dir, "node_modules", name, "package.json");
      if (existsSync(file)) {
        dependencies[name] = String(read(file).version);
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  return dependencies;
}

/**
 * Compile options with every option value that names a readable file keyed by its content, and
 * every one that names a directory (a data release, e.g. continual's `source=DIR`) by the
 * content of the files under it.
 */
function optionFiles(options: CompileOptions): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    if (typeof value !== "string" || !existsSync(value)) continue;
    if (statSync(value).isFile()) files[key] = sha256(readFileSync(value, "utf8"));
    else if (statSync(value).isDirectory()) files[key] = hashSources([value]);
  }
  return files;
}

/** A stored value and the key it was stored under. */
interface CacheFile {
  key: unknown;
  value: unknown;
}

/** Where one value lives: its file, the full key, and the prefix its stale versions share. */
interface Slot {
  dir: string;
  file: string;
  prefix: string;
  key: unknown;
}

/** Compile products of one suite's sources, cached under `dir`. */
export class SuiteCache {
  constructor(
    readonly dir: string,
    private readonly sources: readonly string[],
  ) {}

  /**
   * The value of `kind` (e.g. "specs", "stats") for suite `suiteId` compiled with `options`:
   * read from the cache when a file holds this exact key and `accept`s its value, otherwise
   * computed, stored and returned. The suite's version is not part of the key: it is in the
   * suite's sources, whose content is.
   */
  memo<T>(
    suiteId: string,
    kind: string,
    options: CompileOptions | undefined,
    compute: () => T,
    accept: (value: unknown) => boolean,
  ): T {
    const slot = this.slot(suiteId, kind, options);
    const hit = this.read(slot, accept);
    if (hit.found) return hit.value as T;
    const value = compute();
    this.write(slot, value);
    return value;
  }

  /** memo() for a value computed asynchronously (e.g. after loading the suite's module). */
  async memoAsync<T>(
    suiteId: string,
    kind: string,
    options: CompileOptions | undefined,
    compute: () => Promise<T>,
    accept: (value: unknown) => boolean,
  ): Promise<T> {
    const slot = this.slot(suiteId, kind, options);
    const hit = this.read(slot, accept);
    if (hit.found) return hit.value as T;
    const value = await compute();
    this.write(slot, value);
    return value;
  }

  private slot(suiteId: string, kind: string, options: CompileOptions | undefined): Slot {
    const opts = options ?? {};
    const key = {
      kind,
      suite: suiteId,
      sources: sourcesFingerprint(this.sources),
      dependencies: dependencyVersions(),
      options: opts,
      files: optionFiles(opts),
    };
    // Files of the same kind and options share a prefix; a new version replaces the old ones.
    const prefix = `${kind}-${sha256(canonicalJson({ kind, options: opts })).slice(0, 16)}-`;
    const dir = join(this.dir, suiteId);
    const file = join(dir, `${prefix}${sha256(canonicalJson(key)).slice(0, 16)}.json`);
    return { dir, file, prefix, key };
  }

  private read(slot: Slot, accept: (value: unknown) => boolean) {
    try {
      const stored = JSON.parse(readFileSync(slot.file, "utf8")) as CacheFile;
      if (canonicalJson(stored.key) === canonicalJson(slot.key) && accept(stored.value)) {
        return { found: true, value: stored.value };
      }
    } catch {
      // Missing or unreadable: computed afresh and rewritten.
    }
    return { found: false, value: undefined };
  }

  /** Write atomically (rename), drop stale versions; a cache that cannot be written is skipped. */
  private write(slot: Slot, value: unknown): void {
    try {
      mkdirSync(slot.dir, { recursive: true });
      const tmp = `${slot.file}.${randomUUID()}.tmp`;
      writeFileSync(tmp, JSON.stringify({ key: slot.key, value } satisfies CacheFile));
      renameSync(tmp, slot.file);
      for (const name of readdirSync(slot.dir)) {
        const path = join(slot.dir, name);
        if (name.startsWith(slot.prefix) && name.endsWith(".json") && path !== slot.file) {
          rmSync(path, { force: true });
        }
      }
    } catch {
      // A read-only or full disk costs speed, never the command.
    }
  }
}

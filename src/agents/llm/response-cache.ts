/** Opt-in disk cache of successful model responses, keyed on everything that shapes the answer. */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hashValue } from "../../core/index.ts";

/** What a cache key is made of (the request holds model, messages, tools and parameters). */
export interface CacheKeyParts {
  provider: string;
  baseUrl: string;
  request: Record<string, unknown>;
  epoch: number;
}

/** A directory of responses, one JSON file per key, sharded by the key's first two digits. */
export class ResponseCache {
  constructor(readonly dir: string) {}

  /** sha256 of the canonical JSON of provider, base URL, model, messages, tools, parameters, epoch. */
  key(parts: CacheKeyParts): string {
    const { model, messages, tools, ...parameters } = parts.request;
    return hashValue({
      provider: parts.provider,
      baseUrl: parts.baseUrl,
      model,
      messages,
      tools,
      parameters,
      epoch: parts.epoch,
    });
  }

  /** The stored response, or undefined on a miss (an unreadable entry counts as a miss). */
  async get(key: string): Promise<unknown | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.file(key), "utf8")) as { response?: unknown };
      return entry.response;
    } catch {
      return undefined;
    }
  }

  /** Store a response atomically (temporary file + rename), so readers never see half a file. */
  async put(key: string, response: unknown): Promise<void> {
    const file = this.file(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify({ key, response }));
    await rename(tmp, file);
  }

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}

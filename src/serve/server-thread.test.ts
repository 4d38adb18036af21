/** The server on a thread of its own: its young generation, its lifecycle and its errors. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRun } from "../log/index.ts";
import { SERVER_RESOURCE_LIMITS, serverWorker, startServerThread } from "./server-thread.ts";

describe("the server thread", () => {
  it("runs with the server's young generation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-thread-"));
    const entry = join(dir, "limits.mjs");
    writeFileSync(
      entry,
      'import { parentPort, resourceLimits } from "node:worker_threads";\nparentPort.postMessage(resourceLimits);\n',
    );
    const worker = serverWorker(pathToFileURL(entry));
    const limits = await new Promise((resolve) => worker.once("message", resolve));
    await worker.terminate();
    expect(limits).toMatchObject({ maxYoungGenerationSizeMb: 192 });
    expect(SERVER_RESOURCE_LIMITS.maxYoungGenerationSizeMb).toBe(192);
  });

  it("serves episodes, and on close records the open ones and ends", async () => {
    const out = mkdtempSync(join(tmpdir(), "lh-thread-out-"));
    const errors: string[] = [];
    const server = await startServerThread({ port: 0, suites: ["robograph"], outDir: out }, (m) =>
      errors.push(m),
    );
    expect(server.suites).toEqual(["robograph"]);
    const created = await fetch(`${server.url}/episodes`, {
      method: "POST",
      body: JSON.stringify({ task: "cosmetics-t03/i5" }),
    });
    expect(created.status).toBe(201);
    const { episode_id: id } = (await created.json()) as { episode_id: string };
    const step = await fetch(`${server.url}/episodes/${encodeURIComponent(id)}/step`, {
      method: "POST",
      body: JSON.stringify({ action: { kind: "tool", calls: [{ tool: "observe", args: {} }] } }),
    });
    expect(step.status).toBe(200);
    await server.close();
    const { header, records } = loadRun(join(out, "robograph"));
    expect(header.status).toBe("finished");
    expect(records.map((r) => [r.episodeId, r.endedBy, r.steps])).toEqual([[id, "abandoned", 1]]);
    expect(errors).toEqual([]);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it("rejects as startServer does: a usage error before any thread, or the thread's", async () => {
    await expect(
      startServerThread({ host: "0.0.0.0", port: 0, suites: ["robograph"], outDir: tmpdir() }),
    ).rejects.toMatchObject({ code: "USAGE", message: expect.stringMatching(/--token/) });
    await expect(
      startServerThread({ port: 0, suites: ["no-such-suite"], outDir: tmpdir() }),
    ).rejects.toMatchObject({ code: "USAGE" });
  });
});

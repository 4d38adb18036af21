import { describe, expect, it } from "vitest";
import { EP100 } from "../catalog.ts";
import { launchScenes, parseScene } from "./scene.ts";

describe("launcher scene files", () => {
  it("one valid file per EP-100 Launch task, matching Table 20's case", () => {
    const scenes = launchScenes();
    const launch = EP100.filter((e) => e.suite === "Launch");
    expect(scenes.size).toBe(34);
    for (const e of launch) expect(scenes.get(e.index)?.case, e.index).toBe(e.caseId);
  });

  it("rejects malformed files with the file name and the path of what is wrong", () => {
    const good = JSON.stringify(launchScenes().get("Launch-02"));
    expect(() => parseScene("{", "bad.json")).toThrow(/bad\.json: not JSON/);
    const unknown = JSON.parse(good);
    unknown.required = ["nope"];
    expect(() => parseScene(JSON.stringify(unknown), "x.json")).toThrow(
      /x\.json: required\[0\]: "nope"/,
    );
    const shots = JSON.parse(good);
    shots.ammo = 1;
    shots.solution = [...shots.solution, ...shots.solution];
    expect(() => parseScene(JSON.stringify(shots), "y.json")).toThrow(/y\.json: .*solution/);
    const extra = JSON.parse(good);
    extra.objects[0].colour = "red";
    expect(() => parseScene(JSON.stringify(extra), "z.json")).toThrow(/z\.json: objects\[0\]/);
  });
});

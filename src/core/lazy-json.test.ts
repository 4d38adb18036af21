import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  heldJson,
  holdJson,
  type JsonPieces,
  jsonBytes,
  jsonPieces,
  jsonText,
} from "./lazy-json.ts";

const decoder = new TextDecoder();
const text = (pieces: JsonPieces) =>
  pieces.map((p) => (typeof p === "string" ? p : decoder.decode(p))).join("");

/** An object like a trace step: `observation` held as bytes between ordinary members. */
function heldStep(step: number, observation: unknown, rest: Record<string, unknown>) {
  const held = { step } as Record<string, unknown>;
  holdJson(held, "observation", jsonBytes(observation));
  Object.assign(held, rest);
  const plain = { step, observation, ...rest };
  return { held, plain };
}

const json = fc.jsonValue({ stringUnit: "binary" });
const rest = fc.dictionary(
  fc.string().filter((k) => k !== "step" && k !== "observation" && k !== "__proto__"),
  json,
);

describe("holdJson (a property kept as JSON bytes)", () => {
  it("reads, stringifies, clones and lists keys exactly as the plain object would", () => {
    fc.assert(
      fc.property(fc.nat(), json, rest, (n, observation, others) => {
        const a = heldStep(n, observation, others);
        expect(Object.keys(a.held)).toEqual(Object.keys(a.plain));
        expect(JSON.stringify(a.held)).toBe(JSON.stringify(a.plain));
        const b = heldStep(n, observation, others);
        expect(structuredClone(b.held)).toEqual({
          ...structuredClone(b.plain),
          observation: JSON.parse(JSON.stringify(observation)),
        });
        const c = heldStep(n, observation, others);
        expect(c.held.observation).toEqual(JSON.parse(JSON.stringify(observation)));
      }),
      { numRuns: 200 },
    );
  });

  it("parses once: the first read settles an ordinary property and releases the bytes", () => {
    const { held } = heldStep(3, { view: { nodes: [1, 2] } }, { action: { kind: "finish" } });
    expect(heldJson(held, "observation")).toBeInstanceOf(Uint8Array);
    const first = held.observation;
    expect(held.observation).toBe(first);
    expect(heldJson(held, "observation")).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(held, "observation")).toMatchObject({
      value: { view: { nodes: [1, 2] } },
      writable: true,
      enumerable: true,
    });
  });

  it("takes an assignment as the new value, never parsing the bytes", () => {
    const { held } = heldStep(0, { a: 1 }, {});
    held.observation = { b: 2 };
    expect(heldJson(held, "observation")).toBeUndefined();
    expect(JSON.stringify(held)).toBe('{"step":0,"observation":{"b":2}}');
  });

  it("holds keys that Object.prototype has, and several keys on one object", () => {
    const held = {} as Record<string, unknown>;
    for (const key of ["valueOf", "constructor", "__proto__", "toString"])
      holdJson(held, key, jsonBytes({ key }));
    expect(Object.getPrototypeOf(held)).toBe(Object.prototype);
    expect(Object.keys(held)).toEqual(["valueOf", "constructor", "__proto__", "toString"]);
    expect(text(jsonPieces(held))).toBe(
      '{"valueOf":{"key":"valueOf"},"constructor":{"key":"constructor"},"__proto__":{"key":"__proto__"},"toString":{"key":"toString"}}',
    );
    expect(heldJson(held, "__proto__")).toBeInstanceOf(Uint8Array);
    expect(held.constructor).toEqual({ key: "constructor" });
    expect(heldJson(held, "constructor")).toBeUndefined();
    expect(heldJson(held, "valueOf")).toBeInstanceOf(Uint8Array);
    expect(heldJson({ valueOf: 1 }, "valueOf")).toBeUndefined();
  });

  it("keeps objects holding the same key on one shape (one shared accessor per key)", () => {
    const a = heldStep(0, 1, {}).held;
    const b = heldStep(1, 2, {}).held;
    const get = (o: object) => Object.getOwnPropertyDescriptor(o, "observation")?.get;
    expect(get(a)).toBeTypeOf("function");
    expect(get(a)).toBe(get(b));
  });
});

describe("jsonPieces", () => {
  it("is JSON.stringify's text of arrays of held objects, with the bytes spliced in unparsed", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), json, rest)), json, (items, other) => {
        const held = items.map(([n, o, r]) => heldStep(n, o, r));
        const value = [...held.map((h) => h.held), other, undefined];
        const expected = JSON.stringify([...held.map((h) => h.plain), other, undefined]);
        expect(text(jsonPieces(value))).toBe(expected);
        for (const h of held) expect(heldJson(h.held, "observation")).toBeInstanceOf(Uint8Array);
        expect(text(jsonPieces(held[0]?.held ?? other))).toBe(
          JSON.stringify(held[0]?.plain ?? other) ?? "null",
        );
      }),
      { numRuns: 200 },
    );
  });

  it("joins adjacent text: one step is its text around its observation's bytes", () => {
    const { held } = heldStep(2, { events: [] }, { note: "hi", action: { kind: "finish" } });
    const pieces = jsonPieces([held]);
    expect(pieces.map((p) => typeof p)).toEqual(["string", "object", "string"]);
    expect(pieces[0]).toBe('[{"step":2,"observation":');
    expect(pieces[2]).toBe(',"note":"hi","action":{"kind":"finish"}}]');
  });

  it("finds held objects down to `depth` levels and serialises deeper ones as they are", () => {
    const trace = () => {
      const { held } = heldStep(0, { a: "é" }, { action: { kind: "finish" } });
      const deep = heldStep(1, [1], {}).held;
      return { held, deep, value: { id: "e", steps: [held], more: { deeper: [deep] } } };
    };
    const expected = JSON.stringify({
      id: "e",
      steps: [{ step: 0, observation: { a: "é" }, action: { kind: "finish" } }],
      more: { deeper: [{ step: 1, observation: [1] }] },
    });
    const two = trace();
    expect(text(jsonPieces(two.value))).toBe(expected);
    expect(heldJson(two.held, "observation")).toBeDefined();
    expect(heldJson(two.deep, "observation")).toBeUndefined(); // three levels down: read
    const three = trace();
    expect(jsonText(three.value, 3)).toBe(expected);
    expect(heldJson(three.deep, "observation")).toBeDefined();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ACCESS } from "../../core/index.ts";
import { extractJson, parseActionReply, stripReasoning } from "./reply-parse.ts";
import { ToolCatalog } from "./tool-catalog.ts";

const jsonObject = fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant("```")));

describe("text replies", () => {
  it("drops everything up to the last </think>", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (a, b, tail) => {
        fc.pre(!tail.includes("</think>"));
        expect(stripReasoning(`${a}</think>${b}</think>${tail}`)).toBe(tail);
      }),
    );
    expect(stripReasoning("no reasoning")).toBe("no reasoning");
  });

  it("finds the JSON object bare, fenced or inside prose", () => {
    fc.assert(
      fc.property(
        jsonObject,
        fc.constantFrom("", "Here you go: ", "```json\n", "```\n"),
        (value, lead) => {
          const json = JSON.stringify(value);
          const text = lead.startsWith("```") ? `${lead}${json}\n\`\`\`` : `${lead}${json}`;
          expect(extractJson(text)).toEqual({ ok: true, value: JSON.parse(json) });
        },
      ),
    );
    expect(extractJson('{"a": }')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the reply is not valid JSON/),
    });
  });

  it("checks an Action against core's schema and the card", () => {
    const catalog = new ToolCatalog({
      id: "t",
      suite: "s",
      title: "t",
      instructions: "",
      tools: [],
      modes: ["say", "finish"],
      rules: [],
      budgets: {},
      access: DEFAULT_ACCESS,
    });
    expect(parseActionReply('{"kind":"finish","answer":"42"}', catalog)).toEqual({
      ok: true,
      action: { kind: "finish", answer: "42" },
    });
    expect(parseActionReply('{"kind":"say"}', catalog)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not a valid action: text: /),
    });
  });
});

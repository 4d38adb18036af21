import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { printable, Redactor, redactUrls, urlSecrets } from "./redact.ts";

describe("redactUrls", () => {
  it("replaces user info and credential query parameters, and keeps the rest", () => {
    expect(redactUrls("see https://alice:pw@api.example.com/v1?model=x&api_key=abc#f")).toBe(
      "see https://***@api.example.com/v1?model=x&api_key=***#f",
    );
    expect(redactUrls("http://token@host/a?key=k1&token=t2")).toBe(
      "http://***@host/a?key=***&token=***",
    );
    expect(redactUrls("mail me at a@b.c, or see http://host/path")).toBe(
      "mail me at a@b.c, or see http://host/path",
    );
    expect(urlSecrets("--base-url=http://al%40ice:p%3Aw@h/v1?sig=s1")).toEqual([
      "al@ice",
      "p:w",
      "s1",
    ]);
  });
});

describe("Redactor", () => {
  it("never lets a known secret through, wherever it sits", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 6 }),
        fc.string(),
        fc.string(),
        (secret, before, after) => {
          const out = new Redactor([secret]).text(`${before}${secret}${after}`);
          expect(out).not.toContain(secret);
        },
      ),
    );
  });

  it("ignores secrets too short to search for", () => {
    expect(new Redactor(["abc", undefined as unknown as string]).text("abc abc")).toBe("abc abc");
  });
});

describe("printable", () => {
  it("escapes control, bidi and replacement characters and lone surrogates, and keeps the rest", () => {
    expect(printable("a\u0000b\u001b[1m\u202e\ufffd\ud800z\tok")).toBe(
      "a\\x00b\\x1b[1m\\u202e\\ufffd\\ud800z\tok",
    );
    expect(printable("é 🚀 ok", 3)).toBe("é 🚀...");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const codes = Array.from(printable(text), (c) => c.codePointAt(0) ?? 0);
        const unprintable = (c: number) =>
          (c < 0x20 && c !== 0x09 && c !== 0x0a) ||
          (c >= 0x7f && c <= 0x9f) ||
          (c >= 0x202a && c <= 0x202e) ||
          c === 0xfffd ||
          (c >= 0xd800 && c <= 0xdfff);
        expect(codes.filter(unprintable)).toEqual([]);
      }),
    );
  });
});

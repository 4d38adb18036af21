/** Parsing of text replies: reasoning stripped, then a JSON Action checked against the catalog. */
import { formatZodError, type ParsedReply, parseAction } from "../../core/index.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

const THINK_END = "</think>";

/** The reply without its reasoning: everything up to the last `</think>` goes. */
export function stripReasoning(text: string): string {
  const end = text.lastIndexOf(THINK_END);
  return end < 0 ? text : text.slice(end + THINK_END.length);
}

/**
 * The one JSON value of a reply. Candidates, first that parses wins: the whole reply, the
 * inside of a ```json fence (first to last fence, so backticks inside strings are harmless),
 * the outermost {...} of prose around it.
 */
export function extractJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim();
  const candidates = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*)```/i.exec(trimmed);
  if (fenced) candidates.push((fenced[1] ?? "").trim());
  const first = trimmed.indexOf("{");
  const last = trimmed.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(trimmed.slice(first, last + 1));
  else if (!trimmed.startsWith("["))
    return { ok: false, error: "the reply contains no JSON object" };
  let error = "";
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (e) {
      // The last candidate is the narrowest, so its error is the most telling.
      error = (e as Error).message;
    }
  }
  return { ok: false, error: `the reply is not valid JSON: ${error}` };
}

/** A reply that should be one Action as JSON, checked against the card's modes and tools. */
export function parseActionReply(text: string, catalog: ToolCatalog): ParsedReply {
  const json = extractJson(stripReasoning(text));
  if (!json.ok) return json;
  // parseAction: the episode stack then takes the checked action without parsing it again.
  const action = parseAction(json.value);
  if (!action.success) {
    return { ok: false, error: `not a valid action: ${formatZodError(action.error)}` };
  }
  const problem = catalog.checkAction(action.data);
  return problem ? { ok: false, error: problem } : { ok: true, action: action.data };
}

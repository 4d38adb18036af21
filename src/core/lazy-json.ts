/**
 * Properties kept as UTF-8 JSON bytes and parsed on first read. An episode's trace holds every
 * observation it showed until the episode ends; as objects (a RoboGraph view is ~100 of them)
 * they survive each young-generation GC of a busy server and are copied by it, which stalls every
 * open episode. As bytes they sit outside the JS heap, are already the JSON a server answers
 * with, and go to the trace writer without being serialised again.
 */

/** Where a held property's bytes are: a non-enumerable symbol key that JSON and clones skip. */
const HELD = Symbol("longhaul.heldJson");

type HeldBytes = Record<string, Uint8Array | undefined>;
type Holder = { [HELD]?: HeldBytes };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * UTF-8 of a text: Node's Buffer.from where there is one (a native write into a shared pool: 1.8
 * us for a 3.6 KB RoboGraph observation, against 12.5 for TextEncoder, measured), else TextEncoder.
 */
const utf8: (text: string) => Uint8Array =
  typeof Buffer === "function"
    ? (text) => Buffer.from(text, "utf8")
    : (text) => encoder.encode(text);

/** The UTF-8 JSON of a value (undefined serialises as null). */
export function jsonBytes(value: unknown): Uint8Array {
  return utf8(JSON.stringify(value) ?? "null");
}

/**
 * The accessor of each held key, one per key for every object: V8 keeps objects whose accessors
 * are the same functions on one shape (hidden class); closures per object would give each its own.
 */
const accessors = new Map<string, PropertyDescriptor>();

function accessorOf(key: string): PropertyDescriptor {
  let accessor = accessors.get(key);
  if (!accessor) {
    accessor = {
      enumerable: true,
      configurable: true,
      get(this: Holder) {
        const value: unknown = JSON.parse(decoder.decode(this[HELD]?.[key]));
        settle(this, key, value);
        return value;
      },
      set(this: Holder, value: unknown) {
        settle(this, key, value);
      },
    };
    accessors.set(key, accessor);
  }
  return accessor;
}

/** Make a held property an ordinary one with `value`. */
function settle(holder: Holder, key: string, value: unknown): void {
  delete (holder[HELD] as HeldBytes)[key];
  Object.defineProperty(holder, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Define `target[key]` as the JSON value `bytes` encodes: enumerable, parsed when first read
 * (and from then on an ordinary data property), replaced by an ordinary property when assigned.
 */
export function holdJson(target: object, key: string, bytes: Uint8Array): void {
  const holder = target as Holder;
  // A record without a prototype: a key such as "valueOf" must not find Object.prototype's.
  if (!holder[HELD]) Object.defineProperty(holder, HELD, { value: Object.create(null) });
  (holder[HELD] as HeldBytes)[key] = bytes;
  Object.defineProperty(holder, key, accessorOf(key));
}

/** The bytes of a property holdJson defined and nobody has read or assigned yet. */
export function heldJson(target: object, key: string): Uint8Array | undefined {
  return (target as Holder)[HELD]?.[key];
}

/** JSON text and bytes that concatenate to one JSON document. */
export type JsonPieces = (string | Uint8Array)[];

/** Appends JSON text and bytes, joining adjacent texts into one piece. */
class PiecesBuilder {
  readonly pieces: JsonPieces = [];
  private text = "";

  add(piece: string | Uint8Array): void {
    if (typeof piece === "string") {
      this.text += piece;
      return;
    }
    if (this.text) this.pieces.push(this.text);
    this.pieces.push(piece);
    this.text = "";
  }

  done(): JsonPieces {
    if (this.text) this.pieces.push(this.text);
    this.text = "";
    return this.pieces;
  }
}

/**
 * The JSON of a value as pieces, byte for byte what JSON.stringify gives once every held property
 * is read, but with the bytes of held properties spliced in unparsed. Held objects are looked for
 * in the value and `depth` levels of objects and arrays below it (2: a trace, its steps, each
 * step); anything deeper is serialised by JSON.stringify as it is.
 */
export function jsonPieces(value: unknown, depth = 2): JsonPieces {
  const out = new PiecesBuilder();
  add(out, value, depth);
  return out.done();
}

/** The JSON text of a value with held properties (their bytes decoded, never parsed). */
export function jsonText(value: unknown, depth = 2): string {
  return jsonPieces(value, depth)
    .map((piece) => (typeof piece === "string" ? piece : decoder.decode(piece)))
    .join("");
}

/** Whether add() looks inside `value` for held objects. */
function searched(value: unknown, depth: number): value is object {
  if (value === null || typeof value !== "object") return false;
  if ((value as Holder)[HELD]) return true;
  return depth > 0 && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** One value, as JSON.stringify would write it (undefined as null, as in an array). */
function add(out: PiecesBuilder, value: unknown, depth: number): void {
  if (!searched(value, depth)) {
    out.add(JSON.stringify(value) ?? "null");
    return;
  }
  const held = (value as Holder)[HELD];
  if (held) {
    addHeld(out, value as Record<string, unknown>, held);
    return;
  }
  if (Array.isArray(value)) {
    out.add("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.add(",");
      add(out, value[i], depth - 1);
    }
    out.add("]");
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    const deeper = searched(v, depth - 1);
    const text = deeper ? undefined : JSON.stringify(v);
    // JSON.stringify leaves out members it cannot write (undefined, functions, symbols).
    if (!deeper && text === undefined) continue;
    out.add(`${first ? "{" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (deeper) add(out, v, depth - 1);
    else out.add(text as string);
  }
  out.add(first ? "{}" : "}");
}

/**
 * A held object: its held members' bytes, and each run of other members between them serialised
 * by one JSON.stringify (a trace step: `"step":0`, the observation, then everything else).
 */
function addHeld(out: PiecesBuilder, value: Record<string, unknown>, held: HeldBytes): void {
  let first = true;
  let run: Record<string, unknown> | undefined;
  const flush = () => {
    if (!run) return;
    const inner = (JSON.stringify(run) as string).slice(1, -1);
    run = undefined;
    if (!inner) return;
    out.add(`${first ? "{" : ","}${inner}`);
    first = false;
  };
  for (const key of Object.keys(value)) {
    const bytes = held[key];
    if (!bytes) {
      // Without a prototype, so that a "__proto__" key is an ordinary member.
      run ??= Object.create(null) as Record<string, unknown>;
      run[key] = value[key];
      continue;
    }
    flush();
    out.add(`${first ? "{" : ","}${JSON.stringify(key)}:`);
    out.add(bytes);
    first = false;
  }
  flush();
  out.add(first ? "{}" : "}");
}

/**
 * Properties kept as UTF-8 JSON bytes and parsed on first read. An episode's trace holds every
 * observation it showed until the episode ends; as objects (a RoboGraph view is ~100 of them)
 * they survive each young-generation GC of a busy server and are copied by it, which stalls every
 * open episode. As bytes they sit outside the JS heap, are already the JSON a server answers
 * with, and go to the trace writer without being serialised again.
 */

/**
 * Marks an object that holds JSON: a non-enumerable symbol key, which JSON, clones and
 * Object.keys skip. The bytes sit in such slots on the object itself, one per held key (see
 * slotOf): a record of them per object, a dictionary in V8, took 265 B of heap per trace step
 * against 81 B, measured.
 */
const HELD = Symbol("longhaul.heldJson");

type Holder = Record<string | symbol, unknown> & { [HELD]?: true };

/** The slot of each held key: where an object keeps that key's bytes while they are unread. */
const slots = new Map<string, symbol>();

function slotOf(key: string): symbol {
  let slot = slots.get(key);
  if (!slot) {
    slot = Symbol(`longhaul.heldJson.${key}`);
    slots.set(key, slot);
  }
  return slot;
}

/** A non-enumerable, writable own property (a slot). */
function defineSlot(holder: Holder, slot: symbol, value: unknown): void {
  Object.defineProperty(holder, slot, { value, writable: true, configurable: true });
}

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
    const slot = slotOf(key);
    accessor = {
      enumerable: true,
      configurable: true,
      get(this: Holder) {
        const value: unknown = JSON.parse(decoder.decode(this[slot] as Uint8Array));
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

/** Make a held property an ordinary one with `value`, releasing its bytes. */
function settle(holder: Holder, key: string, value: unknown): void {
  holder[slots.get(key) as symbol] = undefined;
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
  if (!holder[HELD]) defineSlot(holder, HELD, true);
  defineSlot(holder, slotOf(key), bytes);
  Object.defineProperty(holder, key, accessorOf(key));
}

/** The bytes of a property holdJson defined and nobody has read or assigned yet. */
export function heldJson(target: object, key: string): Uint8Array | undefined {
  const slot = slots.get(key);
  return slot && ((target as Holder)[slot] as Uint8Array | undefined);
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
  if ((value as Holder)[HELD]) {
    addHeld(out, value as Holder);
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
function addHeld(out: PiecesBuilder, value: Holder): void {
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
    const bytes = heldJson(value, key);
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

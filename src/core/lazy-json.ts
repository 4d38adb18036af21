/**
 * Properties kept as UTF-8 JSON bytes and parsed on first read. An episode's trace holds every
 * observation it showed until the episode ends; as objects (a RoboGraph view is ~100 of them)
 * they survive each young-generation GC of a busy server and are copied by it, which stalls every
 * open episode. As bytes they sit outside the JS heap, are already the JSON a server answers
 * with, and go to the trace writer without being serialised again.
 */

/** Where a held property's bytes are: a non-enumerable symbol key that JSON and clones skip. */
const HELD = Symbol("longhaul.heldJson");

type Holder = { [HELD]?: Record<string, Uint8Array> };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 JSON of a value (undefined serialises as null). */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) ?? "null");
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
  delete (holder[HELD] as Record<string, Uint8Array>)[key];
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
  (holder[HELD] as Record<string, Uint8Array>)[key] = bytes;
  Object.defineProperty(holder, key, accessorOf(key));
}

/** The bytes of a property holdJson defined and nobody has read or assigned yet. */
export function heldJson(target: object, key: string): Uint8Array | undefined {
  return (target as Holder)[HELD]?.[key];
}

/** JSON text and bytes that concatenate to one JSON document. */
export type JsonPieces = (string | Uint8Array)[];

/** Appends JSON text and bytes, joining adjacent texts (fewer pieces to hand to a thread). */
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
 * The JSON of a value as pieces, the bytes of properties holdJson defined (on the value, or on
 * the objects of an array value) spliced in unparsed: byte for byte what JSON.stringify gives
 * once every held property is read.
 */
export function jsonPieces(value: unknown): JsonPieces {
  const out = new PiecesBuilder();
  if (Array.isArray(value)) {
    out.add("[");
    value.forEach((item, i) => {
      if (i > 0) out.add(",");
      addItem(out, item);
    });
    out.add("]");
  } else addItem(out, value);
  return out.done();
}

/** One value; an object with held properties member by member. Undefined is null, as in arrays. */
function addItem(out: PiecesBuilder, value: unknown): void {
  if (value === null || typeof value !== "object" || !(value as Holder)[HELD]) {
    out.add(JSON.stringify(value) ?? "null");
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const held = heldJson(value, key);
    const text = held ? undefined : JSON.stringify((value as Record<string, unknown>)[key]);
    if (!held && text === undefined) continue;
    out.add(`${first ? "{" : ","}${JSON.stringify(key)}:`);
    out.add(held ?? (text as string));
    first = false;
  }
  out.add(first ? "{}" : "}");
}

/**
 * Seeded random streams. A stream's state comes from sha256(root + ":" + name), so streams
 * are independent, reproducible across processes and never touch Math.random.
 */
import { sha256Digest } from "./hash.ts";

/** A deterministic pseudo-random stream (sfc32 over a sha256-derived 128-bit state). */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream named `stream` under the root seed `root`. */
  constructor(
    readonly root: string,
    readonly stream = "root",
  ) {
    const digest = sha256Digest(`${root}:${stream}`);
    const words = new DataView(digest.buffer, digest.byteOffset, 16);
    this.a = words.getUint32(0, true);
    this.b = words.getUint32(4, true);
    this.c = words.getUint32(8, true);
    this.d = words.getUint32(12, true);
    // Warm up so closely related seeds decorrelate.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream derived from this one's root and a name path. */
  derive(name: string): Rng {
    return new Rng(this.root, `${this.stream}/${name}`);
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1) with 53 bits of precision. */
  next(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0)
      throw new RangeError(`Rng.int needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** A uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Rng.pick on an empty list");
    return items[this.int(items.length)] as T;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** `k` distinct elements in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, k);
  }

  /** A lowercase hex string of `length` characters. */
  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.nextUint32().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }
}

/** The stream `stream` under root seed `root`. */
export function rngFor(root: string, stream: string): Rng {
  return new Rng(root, stream);
}

/**
 * The simulator's future-event list: a binary min-heap ordered by (time, id). Ids are assigned
 * in insertion order, so events due at the same simulated time come out in the order they were
 * scheduled, on every run. Removal is lazy: a removed entry stays in the heap, marked, and is
 * skipped when it reaches the top.
 */

/** An entry: when it is due and its insertion number. */
export interface Scheduled<T> {
  readonly time: number;
  readonly id: number;
  readonly value: T;
}

/** A priority queue of timed values; `pop` returns the earliest, ties by insertion order. */
export class EventQueue<T> {
  private heap: Scheduled<T>[] = [];
  private removed = new Set<number>();
  private nextId = 0;
  private live = 0;

  /** Number of entries not yet popped or removed. */
  get size(): number {
    return this.live;
  }

  /** Schedule a value at `time`; returns its entry (its id removes it). */
  push(time: number, value: T): Scheduled<T> {
    if (!Number.isFinite(time)) throw new RangeError(`event time must be finite, got ${time}`);
    const entry = { time, id: this.nextId++, value };
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(entry, heap[p] as Scheduled<T>)) break;
      heap[i] = heap[p] as Scheduled<T>;
      i = p;
    }
    heap[i] = entry;
    this.live++;
    return entry;
  }

  /** The earliest live entry, without removing it. */
  peek(): Scheduled<T> | undefined {
    this.skipRemoved();
    return this.heap[0];
  }

  /** Remove and return the earliest live entry. */
  pop(): Scheduled<T> | undefined {
    this.skipRemoved();
    const top = this.heap[0];
    if (top) {
      this.removeTop();
      this.live--;
    }
    return top;
  }

  /** Remove the entry with this id (no-op when it was already popped or removed). */
  remove(id: number): boolean {
    if (id >= this.nextId || this.removed.has(id)) return false;
    if (!this.heap.some((e) => e.id === id)) return false;
    this.removed.add(id);
    this.live--;
    return true;
  }

  private skipRemoved(): void {
    while (this.heap.length > 0 && this.removed.delete((this.heap[0] as Scheduled<T>).id))
      this.removeTop();
  }

  private removeTop(): void {
    const heap = this.heap;
    const last = heap.pop() as Scheduled<T>;
    if (heap.length === 0) return;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(heap[r] as Scheduled<T>, heap[l] as Scheduled<T>) ? r : l;
      if (!before(heap[c] as Scheduled<T>, last)) break;
      heap[i] = heap[c] as Scheduled<T>;
      i = c;
    }
    heap[i] = last;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.id < b.id);
}

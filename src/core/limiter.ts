/**
 * Adaptive concurrency per key (provider): at most `limit` calls in flight; a rate limit
 * halves the limit, and successes raise it again by one per `limit` successes (AIMD).
 */

/** What agents call around each model request. */
export interface CallGate {
  /** Wait for a slot under `key`; call the returned function to release it. */
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  /** The provider answered with a rate limit. */
  rateLimited(key: string): void;
  /** The provider answered normally. */
  succeeded(key: string): void;
}

interface Lane {
  limit: number;
  inFlight: number;
  successes: number;
  waiters: (() => void)[];
}

/** An AIMD gate with one lane per key, each starting at (and never exceeding) `max`. */
export class AdaptiveLimiter implements CallGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly max: number,
    private readonly min = 1,
  ) {}

  /** The current limit for `key`. */
  limitOf(key: string): number {
    return this.lane(key).limit;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    const lane = this.lane(key);
    while (lane.inFlight >= lane.limit) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        lane.waiters.push(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        });
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    signal?.throwIfAborted();
    lane.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.inFlight--;
      this.wake(lane);
    };
  }

  rateLimited(key: string): void {
    const lane = this.lane(key);
    lane.limit = Math.max(this.min, Math.floor(lane.limit / 2));
    lane.successes = 0;
  }

  succeeded(key: string): void {
    const lane = this.lane(key);
    if (lane.limit >= this.max) return;
    lane.successes++;
    if (lane.successes >= lane.limit) {
      lane.limit++;
      lane.successes = 0;
      this.wake(lane);
    }
  }

  private wake(lane: Lane): void {
    // Waiters re-check the limit when they run, so waking a few too many is harmless.
    let free = lane.limit - lane.inFlight;
    while (free-- > 0 && lane.waiters.length > 0) lane.waiters.shift()?.();
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { limit: this.max, inFlight: 0, successes: 0, waiters: [] };
      this.lanes.set(key, lane);
    }
    return lane;
  }
}

// Per-endpoint connection slots of one worker. An endpoint's max_concurrency is the most requests this
// worker has in flight to it (= its keep-alive connections); a claimed delivery beyond that waits
// here, in claim order, for a slot of its endpoint.
// Invariants: running(endpoint) <= its max_concurrency; a delivery is either running or waiting, never
// both; everything waiting is held (leased) by this worker, so the worker keeps the waiting set small
// (the claim loop's maxWaiting) and gives back what waited too long.
export interface Waiting<T> {
  item: T;
  since: number;
}

export class EndpointSlots<T> {
  private readonly running = new Map<string, number>();
  private readonly queues = new Map<string, Waiting<T>[]>();
  private waitingTotal = 0;

  /** Takes a slot of the endpoint for `item` (true), or queues it behind the running ones (false), since `now`. */
  acquireOrWait(endpointId: string, maxConcurrency: number, item: T, now: number): boolean {
    const running = this.running.get(endpointId) ?? 0;
    if (running < maxConcurrency) {
      this.running.set(endpointId, running + 1);
      return true;
    }
    const queue = this.queues.get(endpointId) ?? [];
    queue.push({ item, since: now });
    this.queues.set(endpointId, queue);
    this.waitingTotal++;
    return false;
  }

  /**
   * Frees a slot of the endpoint. With `handOver`, the slot goes straight to the next waiting item,
   * which is returned (the caller starts it); otherwise the slot is simply free.
   */
  release(endpointId: string, handOver: boolean): T | undefined {
    const next = handOver ? this.shift(endpointId) : undefined;
    if (next === undefined) {
      const running = (this.running.get(endpointId) ?? 1) - 1;
      if (running > 0) this.running.set(endpointId, running);
      else this.running.delete(endpointId);
    }
    return next;
  }

  get waiting(): number {
    return this.waitingTotal;
  }

  get endpointsWaiting(): number {
    return this.queues.size;
  }

  /** Everything waiting, across endpoints, in no particular order. */
  *waitingItems(): IterableIterator<T> {
    for (const queue of this.queues.values()) for (const waiting of queue) yield waiting.item;
  }

  /** Removes and returns what waited since before `cutoff`, across endpoints. */
  takeWaitingSince(cutoff: number): T[] {
    const stale: T[] = [];
    for (const [endpointId, queue] of this.queues) {
      while (queue.length > 0 && queue[0]!.since < cutoff) stale.push(queue.shift()!.item);
      if (queue.length === 0) this.queues.delete(endpointId);
    }
    this.waitingTotal -= stale.length;
    return stale;
  }

  /** Removes and returns everything waiting for this endpoint, or for any endpoint. */
  takeWaiting(endpointId?: string): T[] {
    const taken = endpointId === undefined ? [...this.queues.values()].flat() : (this.queues.get(endpointId) ?? []);
    if (endpointId === undefined) this.queues.clear();
    else this.queues.delete(endpointId);
    this.waitingTotal -= taken.length;
    return taken.map((waiting) => waiting.item);
  }

  private shift(endpointId: string): T | undefined {
    const queue = this.queues.get(endpointId);
    const next = queue?.shift();
    if (queue?.length === 0) this.queues.delete(endpointId);
    if (next) this.waitingTotal--;
    return next?.item;
  }
}

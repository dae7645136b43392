/**
 * A ring of entries, oldest first, each with its id (ascending) and its cost in bytes: an array
 * with a moving head, so that dropping the oldest is O(1) and holding few entries costs little.
 * The journal keeps one an account (and one for requests naming none).
 */
export class Ring<T extends { id: number; bytes: number }> {
  private items: (T | undefined)[] = [];
  private head = 0;
  bytes = 0;

  constructor(readonly key: string) {}

  get length(): number {
    return this.items.length - this.head;
  }

  push(e: T): void {
    this.items.push(e);
    this.bytes += e.bytes;
  }

  /** Removes and returns the oldest entry. */
  shift(): T | undefined {
    const e = this.items[this.head];
    if (e === undefined) return undefined;
    this.items[this.head++] = undefined;
    this.bytes -= e.bytes;
    // Compact once the dropped part is most of the array, so it never grows without bound.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return e;
  }

  /** The k-th newest entry (0: the newest), or undefined past the oldest. */
  newest(k: number): T | undefined {
    return k < this.length ? this.items[this.items.length - 1 - k] : undefined;
  }
}

/**
 * Merges rings into one sequence of entries, newest first (by id, which orders arrivals): a
 * heap of the rings by their next entry, so reading n entries of L rings is O(n log L).
 * @example [...newestFirst([ringOf(1, 4), ringOf(2, 3)])].map((e) => e.id) // [4, 3, 2, 1]
 */
export function* newestFirst<T extends { id: number; bytes: number }>(lanes: readonly Ring<T>[]): Generator<T> {
  // heap[i] = [id of the lane's next entry, lane index, how far into the lane]
  type Cursor = [number, number, number];
  const heap: Cursor[] = [];
  const less = (i: number, j: number) => (heap[i] as Cursor)[0] > (heap[j] as Cursor)[0];
  const swap = (i: number, j: number) => {
    const t = heap[i] as Cursor;
    heap[i] = heap[j] as Cursor;
    heap[j] = t;
  };
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && less(l, top)) top = l;
      if (r < heap.length && less(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  lanes.forEach((lane, l) => {
    const e = lane.newest(0);
    if (e !== undefined) heap.push([e.id, l, 0]);
  });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0] as Cursor;
    const lane = lanes[top[1]] as Ring<T>;
    yield lane.newest(top[2]) as T;
    const next = lane.newest(top[2] + 1);
    if (next === undefined) {
      swap(0, heap.length - 1);
      heap.pop();
    } else {
      heap[0] = [next.id, top[1], top[2] + 1];
    }
    down(0);
  }
}

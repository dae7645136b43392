/**
 * Buffers for page bodies built for one request, taken and given back once the socket has
 * written them. A body of more than 4 KB from `Buffer.allocUnsafe` is memory of its own, outside
 * V8's heap: allocated, faulted in, and freed only by a collection, which that memory itself calls
 * (V8 counts it). At cold pages' rate (every request a body of 10-100 KB) that cost more than
 * building the body: a bare node:http server copying its 54 KB answer into a fresh buffer per
 * request fell from 70,000 to 32,000 requests a second on two cores, and to 70,000 again taking
 * the buffer from a pool.
 *
 * Buffers come in sizes of powers of two, 8 KB to 2 MB (a page of 1,000 calls is about 1.1 MB;
 * larger pages are streamed); a body gets a view of the smallest that holds it. What is given
 * back is kept while the pool holds less than its budget, and left to the collector otherwise.
 * @example const b = bodies.take(10_000); b.length // 10000 (a view of a 16 KB buffer); bodies.give(b)
 */
export class BodyPool {
  /** Free buffers by size class: `free[c]` holds buffers of 2^(c + MIN_LOG2) bytes. */
  private readonly free: Buffer[][] = [];
  /** Bytes of the free buffers held. */
  private held = 0;
  /** Buffers of the pool's sizes taken and not given back: for tests. */
  lent = 0;

  constructor(private readonly maxBytes: number) {
    for (let c = MIN_LOG2; c <= MAX_LOG2; c++) this.free.push([]);
  }

  /** A buffer of exactly `bytes` bytes, its content undefined; from the pool when the size allows. */
  take(bytes: number): Buffer {
    const c = classOf(bytes);
    if (c < 0) return Buffer.allocUnsafe(bytes);
    this.lent++;
    const slab = (this.free[c] as Buffer[]).pop();
    if (slab === undefined) return Buffer.allocUnsafeSlow(2 ** (c + MIN_LOG2)).subarray(0, bytes);
    this.held -= slab.length;
    return slab.subarray(0, bytes);
  }

  /**
   * Gives back a body `take` returned, once nothing will read it again (its response written and
   * noted). Anything else, or a buffer beyond the budget, is left to the collector.
   */
  give(body: Buffer): void {
    const slab = body.buffer;
    const c = classOf(body.length);
    if (c < 0 || body.byteOffset !== 0 || slab.byteLength !== 2 ** (c + MIN_LOG2)) return;
    this.lent--;
    if (this.held + slab.byteLength > this.maxBytes) return;
    this.held += slab.byteLength;
    (this.free[c] as Buffer[]).push(Buffer.from(slab));
  }

  /** Bytes of the free buffers held, for tests. */
  get heldBytes(): number {
    return this.held;
  }
}

/** 8 KB: below 4 KB node's own pool serves, and a class of 4 KB would rarely be used. */
const MIN_LOG2 = 13;
/** 2 MB. */
const MAX_LOG2 = 21;

/** The size class of a body of `bytes` (its index in `free`), or -1 outside the pool's sizes. */
function classOf(bytes: number): number {
  if (bytes <= 4096 || bytes > 2 ** MAX_LOG2) return -1;
  const log2 = Math.max(MIN_LOG2, 32 - Math.clz32(bytes - 1));
  return log2 - MIN_LOG2;
}

/**
 * The process's pool of page bodies: 16 MB of free buffers at most, enough for a few hundred
 * connections' pages in flight.
 */
export const bodies = new BodyPool(16 * 1024 * 1024);

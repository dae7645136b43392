/** Failed logins a client may make at once before its logins are slowed down. */
const BURST = 200;
/** How many failed logins a second a client earns back, and the pace its slowed logins are answered at. */
const RATE = 50;
/** Clients remembered at most; past it the map starts again (an attacker gains a fresh burst, no more). */
const CLIENTS = 10_000;

interface Client {
  tokens: number;
  atMs: number;
  /** When the next slowed login of this client may be answered. */
  nextMs: number;
}

/**
 * Repeated failed logins from one client are slowed down: each client may fail BURST times at
 * once, and earns RATE a second back; past that, its logins wait their turn, RATE a second
 * however many connections it opens (guessing ran at 1,500-2,600 a second). The wall clock
 * times this only; it shapes no data.
 */
export class LoginThrottle {
  private readonly clients = new Map<string, Client>();

  /** Milliseconds the client's next login waits before it is checked: 0 while it has failures to spare. */
  wait(client: string, nowMs: number): number {
    const c = this.refilled(client, nowMs);
    if (c === undefined || c.tokens >= 1) return 0;
    c.nextMs = Math.max(nowMs, c.nextMs) + 1000 / RATE;
    return c.nextMs - nowMs;
  }

  /** A slowed login given up before its turn (its client left): the turn goes back. */
  cancel(client: string): void {
    const c = this.clients.get(client);
    if (c !== undefined) c.nextMs -= 1000 / RATE;
  }

  /** A login of the client failed. */
  failed(client: string, nowMs: number): void {
    let c = this.refilled(client, nowMs);
    if (c === undefined) {
      if (this.clients.size >= CLIENTS) this.clients.clear();
      c = { tokens: BURST, atMs: nowMs, nextMs: nowMs };
      this.clients.set(client, c);
    }
    c.tokens -= 1;
  }

  private refilled(client: string, nowMs: number): Client | undefined {
    const c = this.clients.get(client);
    if (c === undefined) return undefined;
    c.tokens = Math.min(BURST, c.tokens + ((nowMs - c.atMs) * RATE) / 1000);
    c.atMs = nowMs;
    // A client back to a full burst is forgotten: the map holds only those failing now.
    if (c.tokens >= BURST && c.nextMs <= nowMs) {
      this.clients.delete(client);
      return undefined;
    }
    return c;
  }
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  type CallbackRequest,
  callbackParams,
  callbackRequest,
  inboundCallbackParams,
  type Param,
  type ZoneView,
} from '../format/callback';
import { isoMillis } from '../format/dates';
import { twilioCallbackParams, twilioCallbackRequest } from '../format/twilio/callback';
import type { CallbackFaults, NumberCallback } from '../generators/account-spec';
import type { CallRecord } from '../generators/call-record';
import {
  CALLBACK_EVENTS,
  type CallbackEvent,
  type CallbackFault,
  dueCallbacks,
  faultedCallbacks,
} from '../generators/created-call';
import type { InboundState } from '../generators/traffic-callbacks';
import { offsetAt } from '../input/zone';

/**
 * The status callbacks of created calls: which are due when a clock moves, their delivery as
 * production's Downloader makes it (one call's callbacks one after another, calls side by side;
 * redirects followed; a timeout, an error or any status logged and never retried), and a journal
 * of every delivery, for `GET /__admin/callbacks` and the sandbox handle.
 */

/**
 * One callback, due: the call it is about, its account, its state, when it is sent and what its
 * Timestamp says. A created call's (the Call actor's parameters) goes to its own StatusCallback;
 * an inbound call's (`inbound`: the VoiceInterpreter's parameters) to its number's.
 */
export interface DueDelivery {
  accountSid: string;
  call: CallRecord;
  event: CallbackEvent | InboundState | 'absent';
  atMs: number;
  stampMs: number;
  fault?: CallbackFault;
  inbound?: NumberCallback;
  /** A recording status callback of Twilio's: where it goes, and its parameters, made by the caller. */
  recording?: { target: { url: string; method: string }; params: readonly Param[] };
}

/** What came back, or why nothing did. */
export interface DeliveryOutcome {
  status: number;
  headers: Record<string, string>;
  /** The body, cut at the journal's limit. */
  body: string;
  truncated: boolean;
}

/** One delivery as the journal keeps it. */
export interface CallbackEntry {
  /** Its place among every callback made due since the last reset: the order they were due in. */
  seq: number;
  account_sid: string;
  call_sid: string;
  /** A created call's state (`initiated`, `ringing`, `answered`, `completed`), or an inbound call's (`ringing`, `in-progress`, `completed`, `busy`…); a recording's `completed` or `absent`. */
  event: CallbackEvent | InboundState | 'absent';
  /** A created call's SequenceNumber; null for an inbound call's callback, which has none. */
  sequence_number: number | null;
  /** `created`: a call made by POST Calls.json; `inbound`: a call of live traffic, to its number's StatusCallback; `recording`: a recorded call's RecordingStatusCallback. */
  source: 'created' | 'inbound' | 'recording';
  /** The clock's instant the callback was sent at, ISO 8601 (its Timestamp's, but for a delayed or reordered one). */
  due: string;
  /** A seeded delivery fault of the account's `callback_faults`: `drop`, `duplicate`, `delay`, `reorder`; else null. */
  fault: CallbackFault | null;
  /** What was sent, after redirects the first request; null when nothing could be. */
  request: CallbackRequest | null;
  response: DeliveryOutcome | null;
  /** Why there is no response (refused host, timeout, reset, bad URL, redirect loop); null if there is. */
  error: string | null;
  /** Redirects followed before the last answer. */
  redirects: number;
  /** `pending` until the delivery ends. */
  state: 'pending' | 'done';
  /** Wall milliseconds the delivery took: the one field two runs do not share (`timing=false` leaves it out). */
  elapsed_ms: number | null;
}

export interface CallbackOptions {
  /** Host names (besides loopback) callbacks may go to: `--callback-hosts`. */
  hosts: readonly string[];
  /** Connect and read timeout of one request, ms: production's `http-client.response-timeout`, 6000. */
  timeoutMs: number;
  /** Entries the journal keeps, oldest dropped first. */
  entries: number;
  /** Bytes the journal keeps (requests and answers as text), oldest dropped first. */
  journalBytes: number;
  /** Bytes of a response body the journal keeps. */
  bodyBytes: number;
  /** The server's zone (`--server-zone`): the Timestamp parameter's. */
  zone: string;
  /**
   * Twilio's dialect: the auth token a created call's callbacks are signed with, by account
   * (`X-Twilio-Signature`); its callbacks are then Twilio's. Absent: Restcomm's callbacks.
   */
  signing?: (accountSid: string) => string | undefined;
  /** The name look-up (node's `dns.lookup` unless a test gives a hosts file of its own). */
  resolve?: typeof dnsLookup;
}

/** What an entry costs besides its texts: ids, instants, fields. */
const ENTRY_OVERHEAD = 400;

const POOL = { keepAlive: true, maxSockets: 100, maxTotalSockets: 2000, timeout: 2000 };

/**
 * Deliveries under way at once, whatever a move passed: 20,000 calls' callbacks started together
 * held 500 MB of requests waiting for sockets and stalled every other answer for seconds. It is
 * production's pool size for one host (http-client.max-conn-per-route).
 */
const AT_ONCE = 100;
/** Callbacks made due (journaled, queued) per turn of the event loop. */
const QUEUED_PER_TURN = 2000;

/** Production's Downloader follows redirects with no bound; the emulator stops a loop here. */
const MAX_REDIRECTS = 10;
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', '[::1]']);

/**
 * Whether callbacks may go to `host` (a URL's hostname): loopback (127.0.0.0/8, ::1, localhost)
 * or a name given to `--callback-hosts` (`*.example.com` matches its sub-domains).
 * @example callbackHostAllowed('127.0.0.1', []) // true
 * @example callbackHostAllowed('10.0.0.5', []) // false
 */
export function callbackHostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase();
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4 && h.startsWith('127.')) return true;
  return namedHost(h, allowed);
}

/** Whether `--callback-hosts` names the host (then it may resolve anywhere: the user said so). */
function namedHost(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase();
  return allowed.some((a) => (a.startsWith('*.') ? h.endsWith(a.slice(1)) : h === a.toLowerCase()));
}

/**
 * Whether an address is loopback (127.0.0.0/8, ::1, or IPv4-mapped 127.x).
 * @example isLoopbackAddress('::ffff:127.0.0.1') // true
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  return a === '::1' || (isIP(a) === 4 && a.startsWith('127.')) || a.startsWith('::ffff:127.');
}

/**
 * A DNS look-up for a callback's connection that keeps only loopback addresses for a host taken
 * as loopback by its name (`localhost`, `*.localhost`…): a hosts file may map such a name
 * anywhere, and the name alone must not open a way out. A host `--callback-hosts` names goes
 * wherever it resolves. Checked at every hop, since each connects anew.
 */
export function guardedLookup(allowed: readonly string[], resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const named = namedHost(hostname, allowed);
    resolve(hostname, { ...options, all: true }, (err, found: LookupAddress[]) => {
      if (err !== null) return callback(err, '', 0);
      const kept = named ? found : found.filter((f) => isLoopbackAddress(f.address));
      const first = kept[0];
      if (first === undefined) {
        const shown = found.map((f) => f.address).join(', ');
        const refused = Object.assign(new Error(`${hostname} resolves to ${shown}, not loopback: refused`), {
          code: 'ENOTLOOPBACK',
        });
        return callback(refused, '', 0);
      }
      // With `all` the caller (autoSelectFamily) wants the list; else one address.
      if (options.all === true) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, kept);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * Whether Java's `new URI(text)` would take the text (production drops a StatusCallback it cannot
 * parse, silently): no space or other character RFC 2396 leaves out, and every `%` an escape.
 * The empty text parses (an empty relative reference).
 * @example javaUriParses('http://127.0.0.1:9/s') // true
 * @example javaUriParses('http://127.0.0.1:9/a b') // false
 */
export function javaUriParses(text: string): boolean {
  if (/[\s"<>\\^`{|}]/.test(text)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return false;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text);
  return scheme === null || text.length > (scheme[0] as string).length;
}

export class CallbackDesk {
  private readonly journal: CallbackEntry[] = [];
  /** Each kept entry's size (an entry dropped or cleared has none), and their sum, for the byte budget. */
  private sizes = new WeakMap<CallbackEntry, number>();
  private bytes = 0;
  private seq = 0;
  /** Each call's last delivery: the next one starts after it (one Downloader actor a call). */
  private readonly chains = new Map<string, Promise<void>>();
  /** Deliveries made due and not yet ended (queued or under way). */
  private waitingCount = 0;
  /** Deliveries allowed to start when a slot frees, in the order they asked. */
  private readonly slotQueue: (() => void)[] = [];
  private slotsTaken = 0;
  /** Per call, deliveries still to end that a clock move's answer waits for. */
  private readonly awaited = new Map<string, number>();
  /** Requests under way: a close aborts them. */
  private readonly requests = new Set<import('node:http').ClientRequest>();
  private closed = false;
  private readonly lookup: LookupFunction;

  private readonly zone: ZoneView;
  // Production's HTTP client pools keep-alive connections, 100 a host and 2000 in all by default
  // (http-client.max-conn-per-route, max-conn-total): past them, a callback waits for a connection.
  // A connection idle for 2 s is not reused (HttpClient checks it first, validateAfterInactivity):
  // a receiver may have closed it, and a request sent on it would fail.
  private readonly agents = {
    http: new HttpAgent(POOL),
    https: new HttpsAgent(POOL),
  };

  constructor(readonly options: CallbackOptions) {
    this.zone = { name: options.zone, offsetMs: (ms) => offsetAt(options.zone, ms) };
    this.lookup = guardedLookup(options.hosts, options.resolve);
  }

  /**
   * The callbacks of `calls` due in (fromMs, toMs] but `initiated`, their accounts' seeded faults
   * applied, in order: by instant, then as the calls came (their order in `calls`), then as each
   * call sends them.
   */
  static dueBetween(
    calls: readonly { accountSid: string; call: CallRecord; faults?: CallbackFaults | undefined }[],
    fromMs: number,
    toMs: number,
  ): DueDelivery[] {
    const due: DueDelivery[] = [];
    for (const { accountSid, call, faults } of calls) {
      for (const d of faultedCallbacks(dueCallbacks(call), call.sid, faults)) {
        // The create itself sends `initiated` (see `atCreation`): a window that holds its instant
        // (the running clock's, ticked as the create came in) must not send it again.
        if (d.event !== 'initiated' && d.atMs > fromMs && d.atMs <= toMs) due.push({ accountSid, call, ...d });
      }
    }
    // Array.prototype.sort is stable: ties keep the calls' order and each call's states' order.
    return due.sort((a, b) => a.atMs - b.atMs);
  }

  /** The callbacks a create sends as it answers: `initiated` (twice, or none, under a seeded fault). */
  static atCreation(accountSid: string, call: CallRecord, faults: CallbackFaults | undefined): DueDelivery[] {
    return faultedCallbacks(dueCallbacks(call), call.sid, faults)
      .filter((d) => d.event === 'initiated')
      .map((d) => ({ accountSid, call, ...d }));
  }

  /**
   * Sends the callbacks, each after its call's previous one, at most AT_ONCE under way; resolves
   * once every one has an outcome (answered, refused, failed or timed out: none is retried, as in
   * production). They are journaled in their order a slice at a time, so a move that passes many
   * leaves the server answering meanwhile.
   *
   * `awaited`: a clock move's answer waits for the promise. It then leaves out the callbacks of a
   * call whose callback of an earlier move, still unanswered, is under way: a receiver that moves
   * the clock as it answers that callback would otherwise wait on itself. Those follow in order.
   */
  async deliver(due: readonly DueDelivery[], awaited = false): Promise<void> {
    const done: Promise<void>[] = [];
    const mine = new Set<string>();
    const behind = new Set<string>();
    for (let i = 0; i < due.length; i++) {
      if (i > 0 && i % QUEUED_PER_TURN === 0) await new Promise((r) => setImmediate(r));
      const d = due[i] as DueDelivery;
      const sid = d.call.sid;
      const entry = this.record(d);
      // Decided at the call's first callback of this batch; the rest of its callbacks follow it.
      if (awaited && !mine.has(sid) && (this.awaited.get(sid) ?? 0) > 0) behind.add(sid);
      const behindAnother = behind.has(sid);
      if (awaited) {
        mine.add(sid);
        this.awaited.set(sid, (this.awaited.get(sid) ?? 0) + 1);
      }
      this.waitingCount++;
      const previous = this.chains.get(sid) ?? Promise.resolve();
      const next = previous.then(() => this.sendInTurn(entry, d));
      this.chains.set(sid, next);
      const ended = next.finally(() => {
        this.waitingCount--;
        if (this.chains.get(sid) === next) this.chains.delete(sid);
        if (awaited) {
          const left = (this.awaited.get(sid) ?? 1) - 1;
          if (left === 0) this.awaited.delete(sid);
          else this.awaited.set(sid, left);
        }
      });
      if (!behindAnother) done.push(ended);
    }
    await Promise.all(done);
  }

  /** Deliveries made due and not yet ended: under way, or waiting for their turn. */
  get pending(): number {
    return this.waitingCount;
  }

  /**
   * Ends every delivery: those under way are aborted and those waiting end unsent, each journaled
   * so. A stopping server calls it, so that no receiver (one that drips its answer) holds the
   * process.
   */
  close(): void {
    this.closed = true;
    for (const req of this.requests) req.destroy(new Error('the emulator is stopping'));
    for (const wake of this.slotQueue.splice(0)) wake();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Sends once a slot is free, and frees it after. */
  private async sendInTurn(entry: CallbackEntry, d: DueDelivery): Promise<void> {
    if (this.slotsTaken >= AT_ONCE) await new Promise<void>((wake) => this.slotQueue.push(wake));
    this.slotsTaken++;
    try {
      await this.send(entry, d);
    } finally {
      this.slotsTaken--;
      this.slotQueue.shift()?.();
    }
  }

  /** The journal, oldest first, optionally for one account or call. */
  entries(filter: { account?: string; call?: string } = {}): readonly CallbackEntry[] {
    return this.journal.filter(
      (e) =>
        (filter.account === undefined || e.account_sid === filter.account) &&
        (filter.call === undefined || e.call_sid === filter.call),
    );
  }

  /** Forgets the journal (deliveries under way finish, unjournaled). */
  clear(): void {
    this.journal.length = 0;
    this.sizes = new WeakMap();
    this.bytes = 0;
  }

  /** Counts an entry's bytes (again, once it has its request and answer), dropping the oldest past the budget. */
  private weigh(entry: CallbackEntry): void {
    const size =
      ENTRY_OVERHEAD +
      (entry.request === null ? 0 : entry.request.url.length + entry.request.body.length) +
      (entry.response === null ? 0 : entry.response.body.length + JSON.stringify(entry.response.headers).length) +
      (entry.error?.length ?? 0);
    const previous = this.sizes.get(entry);
    if (previous === undefined) return;
    this.bytes += size - previous;
    this.sizes.set(entry, size);
    while (
      this.journal.length > 1 &&
      (this.bytes > this.options.journalBytes || this.journal.length > this.options.entries)
    ) {
      const old = this.journal.shift() as CallbackEntry;
      this.bytes -= this.sizes.get(old) ?? 0;
      this.sizes.delete(old);
    }
  }

  /** A reset: the journal and its numbering start again. */
  reset(): void {
    this.clear();
    this.seq = 0;
    this.worldMark = null;
  }

  /**
   * The instant of the world's clock through which callbacks have been handed out: a move or
   * the running clock (`--clock-rate`) hands out those after it, so none goes twice or not at
   * all. Null: none handed out since the start or a reset.
   */
  worldMark: number | null = null;

  private record(d: DueDelivery): CallbackEntry {
    const entry: CallbackEntry = {
      seq: ++this.seq,
      account_sid: d.accountSid,
      call_sid: d.call.sid,
      event: d.event,
      sequence_number:
        d.inbound === undefined && d.recording === undefined ? CALLBACK_EVENTS.indexOf(d.event as CallbackEvent) : null,
      source: d.recording !== undefined ? 'recording' : d.inbound === undefined ? 'created' : 'inbound',
      due: isoMillis(d.atMs),
      fault: d.fault ?? null,
      request: null,
      response: null,
      error: null,
      redirects: 0,
      state: 'pending',
      elapsed_ms: null,
    };
    this.journal.push(entry);
    this.sizes.set(entry, 0);
    this.weigh(entry);
    return entry;
  }

  private async send(entry: CallbackEntry, d: DueDelivery): Promise<void> {
    const sub = d.recording?.target ?? d.inbound ?? d.call.callback;
    if (sub === undefined) return;
    // Timing is reported, never used: it shapes no data.
    const started = performance.now();
    const deadlineAt = started + this.options.timeoutMs;
    try {
      if (this.closed) {
        entry.error = 'not sent: the emulator stopped first';
        return;
      }
      if (d.fault === 'drop') {
        entry.error = 'dropped: a seeded fault of the account (callback_faults.drop); nothing was sent';
        return;
      }
      const token = d.inbound === undefined ? this.options.signing?.(d.accountSid) : undefined;
      if (d.recording !== undefined && token === undefined) {
        entry.error = 'a recording status callback is signed with the account auth token, which is gone';
        return;
      }
      const event = d.event as CallbackEvent;
      // Twilio numbers the callbacks a call sends; Restcomm numbers the states.
      const sequence = dueCallbacks(d.call).findIndex((c) => c.event === event);
      const params =
        d.recording !== undefined
          ? d.recording.params
          : d.inbound !== undefined
            ? inboundCallbackParams(d.call, d.accountSid, d.event as InboundState, this.zone)
            : token !== undefined
              ? twilioCallbackParams(d.call, d.accountSid, event, d.stampMs, sequence)
              : callbackParams(d.call, d.accountSid, event, d.stampMs, this.zone);
      let target = absoluteUrl(sub.url);
      if (target === undefined) {
        entry.error = `StatusCallback ${JSON.stringify(sub.url)} is not an absolute http or https URL: production's HTTP client fails on it and logs the failure`;
        return;
      }
      for (let hop = 0; ; hop++) {
        const req =
          token === undefined
            ? callbackRequest(target, sub.method, params)
            : twilioCallbackRequest(target, sub.method, params, token);
        if (req === undefined) {
          entry.error = `StatusCallbackMethod ${JSON.stringify(sub.method)} is neither GET nor POST: production's Downloader refuses it and sends nothing`;
          return;
        }
        entry.request ??= req;
        if (!callbackHostAllowed(target.hostname, this.options.hosts)) {
          entry.error = `host ${target.hostname} refused: callbacks go to loopback and to the hosts named by --callback-hosts`;
          return;
        }
        const outcome = await this.fetch(req, deadlineAt);
        if ('error' in outcome) {
          entry.error = outcome.error;
          return;
        }
        const location = outcome.location;
        entry.response = outcome.response;
        if (location === undefined) return;
        if (hop === MAX_REDIRECTS) {
          entry.error = `more than ${MAX_REDIRECTS} redirects: the emulator stops there (production's Downloader follows them without end)`;
          return;
        }
        const next = absoluteUrl(location, target);
        if (next === undefined) return;
        target = next;
        entry.redirects++;
      }
    } finally {
      entry.state = 'done';
      entry.elapsed_ms = Math.round(performance.now() - started);
      this.weigh(entry);
    }
  }

  /**
   * One request and its answer; a redirect's Location separately. `timeoutMs` bounds each wait
   * for a byte (production's response timeout) and `deadlineAt` the whole delivery, redirects
   * included: a receiver that drips a byte every half second cannot hold it for ever.
   */
  private fetch(
    req: CallbackRequest,
    deadlineAt: number,
  ): Promise<{ response: DeliveryOutcome; location?: string } | { error: string }> {
    const { timeoutMs, bodyBytes } = this.options;
    return new Promise((resolve) => {
      const url = new URL(req.url);
      const body = Buffer.from(req.body, 'utf8');
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.method === 'POST') headers['content-length'] = body.length;
      const https = url.protocol === 'https:';
      const send = https ? httpsRequest : httpRequest;
      const agent = https ? this.agents.https : this.agents.http;
      let settled = false;
      const finish = (value: { response: DeliveryOutcome; location?: string } | { error: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        this.requests.delete(out);
        resolve(value);
      };
      let began = false;
      const out = send(url, { method: req.method, headers, timeout: timeoutMs, agent, lookup: this.lookup }, (res) => {
        began = true;
        const chunks: Buffer[] = [];
        let kept = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (kept < bodyBytes) chunks.push(chunk.subarray(0, bodyBytes - kept));
          if (kept + chunk.length > bodyBytes) truncated = true;
          kept = Math.min(bodyBytes, kept + chunk.length);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const response = {
            status,
            headers: flat(res.headers),
            body: Buffer.concat(chunks).toString('utf8'),
            truncated,
          };
          const location = REDIRECTS.has(status) ? res.headers.location : undefined;
          finish(location === undefined ? { response } : { response, location });
        });
        res.on('error', (err) => finish({ error: `response failed: ${err.message}` }));
      });
      out.on('timeout', () => {
        out.destroy();
        finish({ error: `no answer within ${timeoutMs} ms (production's http-client.response-timeout)` });
      });
      out.on('error', (err: NodeJS.ErrnoException) => finish({ error: `${err.code ?? 'error'}: ${err.message}` }));
      this.requests.add(out);
      const deadline = setTimeout(
        () => {
          out.destroy();
          // Nothing at all is the idle timeout's case, said as it says it; a slow trickle is the deadline's.
          finish({
            error: began
              ? `no whole answer within ${timeoutMs} ms (the delivery's deadline, redirects included)`
              : `no answer within ${timeoutMs} ms (production's http-client.response-timeout)`,
          });
        },
        Math.max(0, deadlineAt - performance.now()),
      );
      out.end(req.method === 'POST' ? body : undefined);
    });
  }
}

/** The statuses the Downloader follows (`isRedirect`). */
const REDIRECTS = new Set([301, 302, 303, 307]);

/** An absolute http(s) URL, or undefined (relative, another scheme, unparsable). */
function absoluteUrl(text: string, base?: URL): URL | undefined {
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

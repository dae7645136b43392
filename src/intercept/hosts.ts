import { isIP } from 'node:net';

/**
 * Which hosts the interception proxy answers for. Twilio's helper libraries build
 * `api.{edge}.{region}.twilio.com` from TWILIO_EDGE and TWILIO_REGION (a region alone gives
 * `api.{region}.twilio.com`; an edge alone gets region us1), so those shapes are Twilio's API too;
 * a Restcomm deployment's host is named by the user. Nothing else is answered for.
 */
export interface HostRule {
  /** Whether the proxy answers for this host name (lower case, no port). */
  answers(host: string): boolean;
  /** The DNS names the CA is limited to: the hosts and their sub-domains. */
  readonly caNames: readonly string[];
  /** The hosts as the banner names them, e.g. `api.twilio.com, api.{edge}.{region}.twilio.com`. */
  readonly shown: string;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const TWILIO_API = new RegExp(`^api(?:\\.${LABEL}){0,2}\\.twilio\\.com$`);

/**
 * The rule for a dialect's provider: Twilio's API hosts, or the named Restcomm hosts.
 * @example hostRule('twilio', []).answers('api.sydney.au1.twilio.com') // true
 */
export function hostRule(dialect: 'twilio' | 'restcomm', names: readonly string[]): HostRule {
  if (dialect === 'twilio') {
    return {
      answers: (host) => TWILIO_API.test(host),
      caNames: ['twilio.com'],
      shown: 'api.twilio.com, api.{region}.twilio.com, api.{edge}.{region}.twilio.com',
    };
  }
  const named = new Set(names.map((n) => n.toLowerCase()));
  return { answers: (host) => named.has(host), caNames: [...named], shown: [...named].join(', ') };
}

/** A request target's host and port: `host:port` (CONNECT) or a URL's; null when unreadable. */
export interface Target {
  host: string;
  port: number;
}

/**
 * The host of a CONNECT's authority (`api.twilio.com:443`, `[::1]:443`), lower case, without a
 * trailing dot; null when it is not `host:port`.
 * @example connectTarget('API.Twilio.com.:443') // { host: 'api.twilio.com', port: 443 }
 */
export function connectTarget(authority: string): Target | null {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]/\s]+):([0-9]{1,5})$/.exec(authority);
  if (m === null) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: hostOf(m[1] as string), port };
}

/** A host as compared: lower case, brackets of an IPv6 literal and a final dot dropped. */
export function hostOf(raw: string): string {
  return raw
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Whether a host is an IP address rather than a name (IPv4 in any form a resolver takes, or IPv6). */
export function isAddress(host: string): boolean {
  return isIP(host) !== 0 || /^[0-9.]+$/.test(host) || /^0x[0-9a-f.x]+$/i.test(host);
}

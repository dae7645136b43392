/**
 * Basic credentials as clients send them, in the forms the `basic-auth` package reads (which
 * express-basic-auth used here before): the scheme in any case, spaces around the token, base64
 * or base64url characters. The one reader of an Authorization header: the list lane, the API's
 * routes, the 401's message and the admin guard all read it here.
 */
const BASIC = /^ *(?:[Bb][Aa][Ss][Ii][Cc]) +([A-Za-z0-9._~+/-]+=*) *$/;
const USER_PASS = /^([^:]*):(.*)$/s;

/**
 * The user and password of a Basic Authorization header, or null when it holds none (absent,
 * another scheme, no colon once decoded).
 * @example basicCredentials('Basic Y2RjMDpzZWNyZXQ=') // { user: 'cdc0', password: 'secret' }
 * @example basicCredentials('Bearer x') // null
 */
export function basicCredentials(header: string | string[] | undefined): { user: string; password: string } | null {
  const m = typeof header === 'string' ? BASIC.exec(header) : null;
  const pair = m === null ? null : USER_PASS.exec(Buffer.from(m[1] as string, 'base64').toString());
  return pair === null ? null : { user: pair[1] as string, password: pair[2] as string };
}

import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { ApiError, messages } from './errors';
import type { Dialect } from './format/uris';
import { apiKeyOf } from './generators/account';
import { roleOf, statusOf } from './generators/account-spec';
import { basicCredentials } from './input/credentials';
import { sameSecret } from './input/secret';
import { LoginThrottle } from './login-throttle';
import type { Account, World } from './store/world';

/** Production's realm, so a client that matches on the challenge sees the same one. */
export const REALM = 'Restcomm realm';

/**
 * What a 401 says: none sent (or not Basic) is told what to send; credentials that name no
 * account are told so, and Restcomm's `AccountSid:AuthToken` is told what this service takes.
 */
function unauthorizedMessage(dialect: Dialect, header: string | string[] | undefined): string {
  if (dialect.name === 'twilio') return messages.twilioAuthenticate;
  const user = basicCredentials(header)?.user ?? null;
  if (user === null) return dialect.restcommAccounts ? messages.unauthorizedRestcomm : messages.unauthorized;
  if (!dialect.restcommAccounts && /^AC[0-9a-f]{32}$/.test(user)) return messages.unauthorizedSid;
  return dialect.restcommAccounts ? messages.unknownCredentialsRestcomm : messages.unknownToken;
}

/** An account by what Restcomm takes to name one: its email address first, then its sid; two map look-ups. */
export function accountByRef(world: World, ref: string): Account | undefined {
  return world.accountByEmail(ref) ?? world.account(ref);
}

/** What an unknown user's password is checked against, so that a miss costs what a hit costs. */
const NO_TOKEN = 'x'.repeat(32);

/**
 * The account Basic credentials log in as. The service's way: the API token as the user name,
 * any password. With the Restcomm dialect also Restcomm's way: the account's email or sid as the
 * user and its token as the password, or a password whose MD5 is the token (Restcomm stores the
 * MD5 of a password as the token, and its console sends the MD5).
 */
export function accountOfCredentials(world: World, dialect: Dialect, user: string, pass: string): Account | undefined {
  if (dialect.name === 'twilio' && /^SK[0-9a-f]{32}$/.test(user)) return accountOfApiKey(world, user, pass);
  const byToken = world.accountByToken(user);
  if (byToken !== undefined || !dialect.restcommAccounts) return byToken;
  const account = accountByRef(world, user);
  // The same work whether or not the user names an account: which emails exist does not show
  // in the time a refusal takes.
  const token = account?.profile.token ?? NO_TOKEN;
  const direct = sameSecret(pass, token);
  const hashed = sameSecret(createHash('md5').update(pass, 'utf8').digest('hex'), token);
  return account !== undefined && (direct || hashed) ? account : undefined;
}

/**
 * The account an API key of Twilio's (`SK…` and its secret) is bound to, or undefined. A scan of
 * the accounts: keys are asked for rarely, and an index would be one more thing a reset rebuilds.
 */
function accountOfApiKey(world: World, sid: string, secret: string): Account | undefined {
  const keyOf = (a: Account) => apiKeyOf(a.context.seed, a.profile.sid);
  const account = world.accounts().find((a) => keyOf(a).sid === sid);
  const matches = sameSecret(secret, account === undefined ? NO_TOKEN : keyOf(account).secret);
  return account !== undefined && matches ? account : undefined;
}

/**
 * The account a request's Basic credentials log in as, or null: read and checked once a request
 * (the list lane and the express route ask alike; under the Restcomm dialect a check may cost an
 * MD5), whichever asks first.
 */
const logins = new WeakMap<IncomingMessage, Account | null>();
function loginOf(world: World, dialect: Dialect, req: IncomingMessage): Account | null {
  let login = logins.get(req);
  if (login === undefined) {
    const given = basicCredentials(req.headers.authorization);
    login = (given === null ? undefined : accountOfCredentials(world, dialect, given.user, given.password)) ?? null;
    logins.set(req, login);
  }
  return login;
}

/**
 * HTTP Basic (see `accountOfCredentials`): missing, malformed or unknown credentials are a 401
 * with production's Basic challenge, through the one error handler. The handler after it gets
 * the account logged in as (`loginOf`).
 */
function basicLogin(world: World, dialect: Dialect): RequestHandler[] {
  const throttle = throttleOf(world);
  const clientOf = (req: Parameters<RequestHandler>[0]) => req.socket.remoteAddress ?? '';
  // A client that failed to log in many times waits its turn before its next login is checked.
  const pace: RequestHandler = (req, res, next) => {
    const client = clientOf(req);
    const wait = throttle.wait(client, Date.now());
    if (wait <= 0) return next();
    // A client gone while it waits gives its turn back, and its request is let go at once: a
    // flood of logins dropped as soon as sent once queued here without end (8 KB each, growing
    // by megabytes a second).
    const gone = () => {
      clearTimeout(timer);
      throttle.cancel(client);
    };
    const timer = setTimeout(() => {
      res.off('close', gone);
      next();
    }, wait);
    res.once('close', gone);
  };
  const login: RequestHandler = (req, _res, next) => {
    if (loginOf(world, dialect, req) !== null) return next();
    throttle.failed(clientOf(req), Date.now());
    throw new ApiError(401, unauthorizedMessage(dialect, req.headers.authorization), {
      'WWW-Authenticate': `Basic realm="${REALM}"`,
    });
  };
  return [pace, login];
}

/** One throttle of failed logins for each world (so each app, and each test's emulator, has its own). */
const throttles = new WeakMap<World, LoginThrottle>();
function throttleOf(world: World): LoginThrottle {
  let t = throttles.get(world);
  if (t === undefined) {
    t = new LoginThrottle();
    throttles.set(world, t);
  }
  return t;
}

/** The account the credentials of a request that passed `basicLogin` name. */
function loggedIn(world: World, dialect: Dialect, req: IncomingMessage): Account | undefined {
  return loginOf(world, dialect, req) ?? undefined;
}

/**
 * Login, then the account of the path (`:accountSid`), whose lists the handler reads. Production's
 * `secureLevelControl`: the account itself, its parent or any ancestor; anyone else's login, on
 * an account that exists or not, is a 403.
 */
export function requireAccount(world: World, dialect: Dialect): RequestHandler[] {
  const guard: RequestHandler = (req, res, next) => {
    const sid = String(req.params['accountSid']);
    const login = loggedIn(world, dialect, req);
    const refused = login === undefined ? undefined : loginRefusal(login, req.method, req.path);
    if (refused !== undefined) throw refused;
    const target = readableBy(world, login, sid);
    if (target === undefined) throw new ApiError(403, messages.forbidden(sid));
    res.locals['account'] = target;
    next();
  };
  return [...basicLogin(world, dialect), guard];
}

/**
 * Developer's permissions in Restcomm's default `restcomm.xml`, for the resources served here:
 * the actions each allows. Administrator is allowed everything; a role restcomm.xml does not
 * define, nothing (`PermissionEvaluator.checkPermission`).
 */
const DEVELOPER: Readonly<Record<string, readonly string[]>> = {
  Accounts: ['*'],
  Calls: ['*'],
  Recordings: ['Delete', 'Read'],
  Notifications: ['Read'],
};
const ACTIONS: Readonly<Record<string, string>> = { GET: 'Read', HEAD: 'Read', POST: 'Create', DELETE: 'Delete' };

/**
 * Why production refuses a login a request, if it does: an account not active (SecurityFilter's
 * `filterClosedAccounts`; an uninitialized one may still reach paths under `Accounts`, which all
 * of these are), or a role without the permission the request needs. Generated accounts are
 * active Developers or Administrators: nothing here refuses them.
 */
export function loginRefusal(login: Account, method: string, path: string): ApiError | undefined {
  const status = statusOf(login.spec);
  if (status !== 'active' && status !== 'uninitialized')
    return new ApiError(403, messages.accountNotActive(login.profile.sid, status));
  const role = roleOf(login.spec);
  if (role === 'Administrator') return undefined;
  const resource = /\/Accounts(?:\.json)?(?:\/[^/]+\/([A-Za-z]+))?/.exec(path)?.[1] ?? 'Accounts';
  const action = ACTIONS[method] ?? 'Modify';
  const allowed = role === 'Developer' ? (DEVELOPER[resource] ?? []) : [];
  if (allowed.includes('*') || allowed.includes(action)) return undefined;
  return new ApiError(403, messages.roleRefused(role, `RestComm:${action}:${resource}`));
}

/** The account `sid` names when `login` may read it (itself, or one of its descendants), else undefined. */
function readableBy(world: World, login: Account | undefined, sid: string): Account | undefined {
  if (login === undefined) return undefined;
  const target = login.profile.sid === sid ? login : world.account(sid);
  if (target === undefined) return undefined;
  return target === login || world.ancestors(target).includes(login.profile.sid) ? target : undefined;
}

/**
 * The account a request may read at `sid`, when `requireAccount` would let it through at once:
 * a client with no login wait, credentials that log in, an account they may read `sid` as.
 * Found with no side effect but the login's check (kept for the request); anything else is
 * undefined, and the request then goes through express, which answers it (and counts a failed
 * login) as always.
 */
export function laneAccount(world: World, dialect: Dialect, req: IncomingMessage, sid: string): Account | undefined {
  if (throttleOf(world).wait(req.socket.remoteAddress ?? '', Date.now()) > 0) return undefined;
  const login = loggedIn(world, dialect, req);
  // A login production refuses goes through express, which answers the refusal.
  if (login !== undefined && loginRefusal(login, req.method ?? 'GET', req.url ?? '') !== undefined) return undefined;
  return readableBy(world, login, sid);
}

/**
 * Login, then the account the path names by sid or email (`:accountRef`, Restcomm's account
 * resource). Production's `secureLevelControlAccounts`: an account reads itself; an
 * Administrator also reads its sub-accounts and theirs; a Developer nothing else.
 */
export function requireAccountRef(world: World, dialect: Dialect): RequestHandler[] {
  const guard: RequestHandler = (req, res, next) => {
    const login = loggedIn(world, dialect, req);
    const refused = login === undefined ? undefined : loginRefusal(login, req.method, req.path);
    if (refused !== undefined) throw refused;
    const ref = String(req.params['accountRef']);
    const target = accountByRef(world, ref);
    const allowed =
      login !== undefined &&
      target !== undefined &&
      (target === login ||
        (roleOf(login.spec) === 'Administrator' && world.ancestors(target).includes(login.profile.sid)));
    if (!allowed) throw new ApiError(403, messages.forbidden(ref));
    res.locals['account'] = target;
    next();
  };
  return [...basicLogin(world, dialect), guard];
}

/** The account that logged in, for a route that names none in its path (Restcomm's `Accounts.json`). */
export function requireLogin(world: World, dialect: Dialect): RequestHandler[] {
  const guard: RequestHandler = (req, res, next) => {
    const login = loggedIn(world, dialect, req);
    const refused = login === undefined ? undefined : loginRefusal(login, req.method, req.path);
    if (refused !== undefined) throw refused;
    res.locals['account'] = login;
    next();
  };
  return [...basicLogin(world, dialect), guard];
}

/** The account `requireAccount` (or `requireAccountRef`, `requireLogin`) admitted: the path's, or the login's. */
export function authedAccount(res: Response): Account {
  return res.locals['account'] as Account;
}

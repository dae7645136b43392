import type { RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { ApiError, messages } from './errors';
import type { Account, World } from './store/world';

/** Production's realm, so a client that matches on the challenge sees the same one. */
export const REALM = 'Restcomm realm';

/** Whether Basic credentials name an account sid as the user. */
function userIsAccountSid(header: string | string[] | undefined): boolean {
  const m = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (m === null) return false;
  const user =
    Buffer.from(m[1] as string, 'base64')
      .toString('latin1')
      .split(':')[0] ?? '';
  return /^AC[0-9a-f]{32}$/.test(user);
}

/**
 * HTTP Basic with the account's API token as the user name (the password is ignored):
 * a missing, malformed or unknown token is a 401 with a Basic challenge; a valid token on another
 * account's path, or on an account that does not exist, is a 403, as production answers.
 */
export function requireAccount(world: World): RequestHandler[] {
  const basic = basicAuth({
    authorizer: (user: string) => world.accountByToken(user) !== undefined,
    challenge: true,
    realm: REALM,
    // express-basic-auth has set the challenge header by now; throwing hands the 401 to the one
    // error handler, so its body has the same shape as every other error.
    unauthorizedResponse: (req: { headers: Record<string, string | string[] | undefined> }) => {
      // Clients written for Restcomm send AccountSid:AuthToken: say what this service takes instead.
      throw new ApiError(
        401,
        userIsAccountSid(req.headers['authorization']) ? messages.unauthorizedSid : messages.unauthorized,
      );
    },
  });
  const guard: RequestHandler = (req, res, next) => {
    const token = (req as basicAuth.IBasicAuthedRequest).auth.user;
    const account = world.accountByToken(token);
    const sid = String(req.params['accountSid']);
    if (account === undefined || account.profile.sid !== sid) throw new ApiError(403, messages.forbidden(sid));
    res.locals['account'] = account;
    next();
  };
  return [basic, guard];
}

/** The account `requireAccount` admitted. */
export function authedAccount(res: Response): Account {
  return res.locals['account'] as Account;
}

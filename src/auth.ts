import type { RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { ApiError, messages } from './errors';
import type { Account, World } from './store/world';

/** Production's realm, so a client that matches on the challenge sees the same one. */
export const REALM = 'Restcomm realm';

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
    unauthorizedResponse: () => {
      throw new ApiError(401, messages.unauthorized);
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

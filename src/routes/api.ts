import type { Express } from 'express';
import { authedAccount, requireAccount, requireAccountRef } from '../auth';
import { accountJson, accountXml } from '../format/account';
import { ADMIN, adminRoutes, apiRoutes, routes } from '../format/uris';
import { xmlDocument } from '../format/xml';
import { LIST_NAMES, type ListName } from '../generators/lists';
import { accountCreatedSec } from '../generators/timeline';
import { methodNotAllowed } from '../http/error-handler';
import type { World } from '../store/world';
import { VERSION } from '../version';
import { mountAudio } from './audio';
import { type ListSettings, listHandler, negotiate } from './list';
import { LIST_RESOURCES } from './lists';
import { mountRecords } from './records';
import { sendBody } from './send-page';

const ALLOW = 'GET, HEAD';

/**
 * The provider's API under every mount prefix of the dialect: every list, the audio, single
 * records, a call's sub-lists and (Restcomm dialect) the account resource.
 * Routes sit on the app itself, not in nested routers: each router level costs every request.
 */
export function mountApi(app: Express, world: World, settings: ListSettings): void {
  const { dialect } = settings;
  const auth = requireAccount(world, dialect);
  for (const mount of dialect.mounts) {
    const r = apiRoutes(mount);
    const handler = <K extends ListName>(name: K) => listHandler(LIST_RESOURCES[name], settings, mount);
    for (const name of LIST_NAMES) {
      app.get(r[name], ...auth, handler(name));
      app.all(r[name], methodNotAllowed(ALLOW));
    }
    // The audio route comes before the single-recording one, whose sid would swallow ".wav".
    mountAudio(app, world, r);
    mountRecords(app, world, auth, settings, r);
    if (dialect.restcommAccounts) {
      // Restcomm's console and SDKs log in by reading the account, by sid or by email.
      app.get(r.account, ...requireAccountRef(world, dialect), (req, res) => {
        const format = negotiate(req, dialect);
        const account = authedAccount(res);
        const created = accountCreatedSec(account.context, account.profile, account.spec.calls);
        const { profile } = account;
        sendBody(
          res,
          format,
          format === 'xml' ? xmlDocument(accountXml(profile, created)) : accountJson(profile, created),
        );
      });
      app.all(r.account, methodNotAllowed(ALLOW));
    }
  }
  // A person or a client exploring the server: where the API, the admin API and its document are.
  app.get(routes.index, (_req, res) => {
    res.json({
      name: 'callrec-emulator',
      version: VERSION,
      api: routes.calls.replace(':accountSid', '{AccountSid}').replace('{.json}', '.json'),
      admin: ADMIN,
      health: adminRoutes.health,
      openapi: adminRoutes.openapi,
    });
  });
  app.all(routes.index, methodNotAllowed(ALLOW));
}

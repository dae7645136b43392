import type { Express, RequestHandler } from 'express';
import { authedAccount, requireAccount, requireAccountRef, requireLogin } from '../auth';
import { accountJson, accountXml, generatedFacts } from '../format/account';
import { accountRowFacts } from '../format/rows';
import { ADMIN, adminRoutes, apiRoutes, routes } from '../format/uris';
import { xmlDocument, xmlElement, xmlWrapped } from '../format/xml';
import { LIST_NAMES, type ListName } from '../generators/list-names';
import { accountCreatedSec } from '../generators/timeline';
import { methodNotAllowed } from '../http/error-handler';
import type { Account, World } from '../store/world';
import { VERSION } from '../version';
import { mountAudio } from './audio';
import { listHandler, negotiate } from './list-page';
import { LIST_RESOURCES } from './list-resources';
import type { ListSettings } from './list-settings';
import { mountRecords, type RecordingDelete } from './records';
import { sendBody } from './send-page';

const ALLOW = 'GET, HEAD';

/**
 * The provider's API under every mount prefix of the dialect: every list, the audio, single
 * records, a call's sub-lists, creating calls (`create`) and (Restcomm dialect) the account resource.
 * Routes sit on the app itself, not in nested routers: each router level costs every request.
 */
export function mountApi(
  app: Express,
  world: World,
  settings: ListSettings,
  create: RequestHandler[] = [],
  deleteRecording?: RecordingDelete,
): void {
  const { dialect } = settings;
  const auth = requireAccount(world, dialect);
  for (const mount of dialect.mounts) {
    const r = apiRoutes(mount);
    const descendants = (a: Account) => world.descendants(a.profile.sid);
    const handler = <K extends ListName>(name: K) => listHandler(LIST_RESOURCES[name], settings, mount, descendants);
    for (const name of LIST_NAMES) {
      app.get(r[name], ...auth, handler(name));
      // Calls are created by a POST to their list (see routes/create-call.ts).
      if (name === 'calls' && create.length > 0) app.post(r[name], ...auth, ...create);
      app.all(r[name], methodNotAllowed(name === 'calls' && create.length > 0 ? `${ALLOW}, POST` : ALLOW));
    }
    // The audio route comes before the single-recording one, whose sid would swallow ".wav".
    // Production's RecordingsEndpoint serves a recording's own file under `.mp4` too (its type
    // comes from the stored file_uri, not from the path), as open as `.wav`: the same audio.
    mountAudio(app, world, [r.recordingAudio, r.recordingMp4]);
    mountRecords(app, world, auth, settings, r, dialect.restcommAccounts ? deleteRecording : undefined);
    if (dialect.restcommAccounts) {
      // Production's own account shows its row; a generated one, its creation and role.
      const factsOf = (a: Account) =>
        a.spec.verbatim === undefined
          ? generatedFacts(a.profile.sid, accountCreatedSec(a.context, a.profile, a.spec.calls), a.spec.role)
          : accountRowFacts(a.spec.verbatim.account);
      // Restcomm's console and SDKs log in by reading the account, by sid or by email.
      app.get(r.account, ...requireAccountRef(world, dialect), (req, res) => {
        const format = negotiate(req, dialect);
        const account = authedAccount(res);
        const facts = factsOf(account);
        sendBody(
          res,
          format,
          format === 'xml' ? xmlDocument(accountXml(account.profile, facts)) : accountJson(account.profile, facts),
        );
      });
      app.all(r.account, methodNotAllowed(ALLOW));
      // The console's account switcher: the login's direct sub-accounts, a bare array (an
      // `<Accounts>` list in XML), whatever the role (`getChildAccounts`).
      app.get(r.accounts, ...requireLogin(world, dialect), (req, res) => {
        const format = negotiate(req, dialect);
        const children = world.children(authedAccount(res).profile.sid);
        if (format === 'xml') {
          const { head, tail } = xmlWrapped('Accounts', [], children.length === 0);
          const items = children.map((c) => xmlElement(accountXml(c.profile, factsOf(c)), 2));
          sendBody(res, format, head + items.join('') + tail);
          return;
        }
        sendBody(res, format, `[${children.map((c) => accountJson(c.profile, factsOf(c))).join(',')}]`);
      });
      app.all(r.accounts, methodNotAllowed(ALLOW));
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

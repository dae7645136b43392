import { verbatimSpec } from '../generators/account-spec';
import { asObject, checkKeys, readerOf } from '../input/fields';
import { readProductionData } from '../input/restcomm-dump';
import { RowSids } from '../store/fixtures';
import { accountView } from './account-view';
import { type AdminHandler, clearHarness, refuseIfSandboxes } from './context';
import { ok } from './reply';

const DATA_FIELDS = ['dump', 'file', 'replace'];

/**
 * `POST /__admin/data {"dump": "<a mysqldump or HSQLDB script>", "file"?: "prod.sql", "replace"?: false}`:
 * production's tables in, as `--data` loads them at start-up. Its accounts join the fixtures
 * (or replace them, with `"replace": true`), so a reset goes back to them; the world is built
 * again, as by `POST /__admin/seed`. All or nothing: a problem anywhere in the dump is a 400
 * naming `file:line:column` and the column, and changes nothing. Answers what the dump held.
 */
export const importData: AdminHandler = (ctx, req) => {
  const { world } = ctx;
  const body = asObject(req.body(), 'body');
  checkKeys(body, 'body', DATA_FIELDS);
  const r = readerOf(body, 'body', DATA_FIELDS);
  if (typeof body['dump'] !== 'string') r.fail('dump', 'must be the text of a mysqldump or an HSQLDB script');
  const file = r.string('file') ?? 'body.dump';
  const replace = body['replace'] ?? false;
  if (typeof replace !== 'boolean') r.fail('replace', 'must be true or false');
  const { accounts, report } = readProductionData((body['dump'] as string).split('\n'), file);
  const kept = replace === true ? [] : world.baseAccounts;
  // A row's sid is its table's key across the fixtures and the dump, as one database's.
  const sids = new RowSids();
  for (const a of kept) if (a.verbatim !== undefined) sids.add(a.verbatim, `fixtures: ${a.sid}`);
  for (const a of accounts) sids.add(a, `${file}: ${a.account.sid}`);
  refuseIfSandboxes(ctx, req, 'A data import', 'POST /__admin/data');
  world.reseed({ seed: world.seed, clockMs: world.clockMs, accounts: [...kept, ...accounts.map(verbatimSpec)] });
  clearHarness(ctx);
  return ok({ status: 'imported', report, accounts: world.accounts().map(accountView) });
};

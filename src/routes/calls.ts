import { CALLS_WIRE } from '../format/list-wire';
import { CALL_LIST } from '../query/lists';
import { listResource } from './list';

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Calls.json` (and without `.json`, by Accept). */
export const calls = listResource(CALLS_WIRE, CALL_LIST, (account) => account.calls);

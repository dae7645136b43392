import { RECORDINGS_WIRE } from '../format/list-wire';
import { RECORDING_LIST } from '../query/lists';
import { listResource } from './list';

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Recordings.json` (and without `.json`, by Accept). */
export const recordings = listResource(RECORDINGS_WIRE, RECORDING_LIST, (account) => account.recordings);

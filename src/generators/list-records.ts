import type { CallRecord } from './call-record';
import type { ListName } from './list-names';
import type { NotificationRecord } from './notification';
import type { RecordingRecord } from './recording';

/**
 * The list resources the emulator serves, by name, with the record each holds: the registry's
 * keys. Every layer keeps what it knows of a list in a record keyed by these names (the table
 * kind in store/table-kinds.ts, the wire in format/list-wire.ts, the parameters in query/list-specs.ts, the
 * route in routes/list-resources.ts), so a list added here is a type error in each until it is handled.
 */
interface Records {
  calls: CallRecord;
  recordings: RecordingRecord;
  notifications: NotificationRecord;
}

export type ListRecords = { [K in ListName]: K extends keyof Records ? Records[K] : never };

import { LIST_WIRES } from '../format/list-wire';
import { LIST_NAMES, type ListName } from '../generators/list-names';
import type { ListRecords } from '../generators/list-records';
import { LIST_SPECS } from '../query/list-specs';
import type { Created } from '../store/table-contracts';
import type { ListColumns } from '../store/table-kinds';
import { type ListResource, listResource } from './list-page';

/** A list resource as the routes serve it, its types read off its name. */
export type ListResourceOf<K extends ListName> = ListResource<ListColumns[K] | Created, ListRecords[K]>;

function resourceOf<K extends ListName>(name: K): ListResourceOf<K> {
  return listResource(name, LIST_WIRES[name], LIST_SPECS[name], (account) => account.tables[name]);
}

/**
 * Every list the API serves, `GET …/Accounts/{AccountSid}/{Segment}.json` (and without `.json`,
 * by Accept): the registry's entries put together (see generators/list-records.ts). Nothing here is
 * written per list: a new list's parts come from its entries in the layers below.
 */
export const LIST_RESOURCES = Object.fromEntries(LIST_NAMES.map((name) => [name, resourceOf(name)])) as {
  readonly [K in ListName]: ListResourceOf<K>;
};

import { countKeyField } from '../keys.ts';
import { fieldCount, messageField, oneofMember, repeatedMessages, repeatedVarintCount } from '../wire.ts';
import { addExtra, type ServiceCalculator } from './common.ts';

// ContractCreateTransactionBody / ContractUpdateTransactionBody: adminKey
const ADMIN_KEY = 3;

export const contractCreate: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', countKeyField(op, ADMIN_KEY));
  const hooks = fieldCount(op, 20);
  if (hooks > 0) addExtra(context, 'HOOK_UPDATES', hooks);
};

/** Hook creations and hook deletions are charged as two separate HOOK_UPDATES extras, as the node charges them. */
export const contractUpdate: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', countKeyField(op, ADMIN_KEY));
  const created = fieldCount(op, 17);
  if (created > 0) addExtra(context, 'HOOK_UPDATES', created);
  const deleted = repeatedVarintCount(op, 16);
  if (deleted > 0) addExtra(context, 'HOOK_UPDATES', deleted);
};

/** One slot per storage slot update, one per entry of a mapping update. */
export const hookStore: ServiceCalculator = (op, context) => {
  let slots = 0;
  for (const update of repeatedMessages(op, 2)) {
    const member = oneofMember(update, [1, 2]);
    if (member?.number === 1) slots += 1;
    else if (member?.number === 2) slots += fieldCount(messageField(update, 2) ?? new Map(), 2);
  }
  addExtra(context, 'HOOK_SLOT_UPDATE', slots);
};

/** SchedulableTransactionBody's `data` oneof spans these field numbers; 3 is contractCall. */
const SCHEDULABLE_DATA = Array.from({ length: 49 }, (_, i) => i + 3);
const SCHEDULED_CONTRACT_CALL = 3;

/** The admin key, and a flat extra for scheduling a contract call. */
export const scheduleCreate: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', countKeyField(op, ADMIN_KEY));
  const scheduled = messageField(op, 1);
  if (scheduled && oneofMember(scheduled, SCHEDULABLE_DATA)?.number === SCHEDULED_CONTRACT_CALL) {
    addExtra(context, 'SCHEDULE_CREATE_CONTRACT_CALL_BASE', 1);
  }
};

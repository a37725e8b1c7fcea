import { countKeyList } from '../keys.ts';
import { bytesField, messageField } from '../wire.ts';
import { addExtra, type ServiceCalculator } from './common.ts';

// FileCreateTransactionBody and FileUpdateTransactionBody: keys (a KeyList) and contents
const KEYS = 3;
const CONTENTS = 4;

/**
 * FileCreate and FileUpdate: the keys of the file's key list and the contents' bytes. (The node waives the fee of
 * a privileged update of a system file; an estimate cannot know the payer's privileges and prices it as any other.)
 */
export const fileCreateOrUpdate: ServiceCalculator = (op, context) => {
  const keys = messageField(op, KEYS);
  addExtra(context, 'KEYS', keys ? countKeyList(keys) : 0n);
  addExtra(context, 'STATE_BYTES', bytesField(op, CONTENTS)?.length ?? 0);
};

export const fileAppend: ServiceCalculator = (op, context) => {
  addExtra(context, 'STATE_BYTES', bytesField(op, CONTENTS)?.length ?? 0);
};

/** SystemDelete and SystemUndelete: free for the privileged accounts that may send them. */
export const systemFileOperation: ServiceCalculator = (_op, context) => {
  context.result.clear();
};

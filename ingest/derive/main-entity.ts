/**
 * `transaction.entity_id`: the entity each transaction type is about, as the importer's handlers' getEntity name it.
 */
import type { RecordItem } from '../decode/record-item.ts';
import { accountId, contractId, fileId, scheduleId, tokenId, topicId } from './context.ts';
import { contractEntity } from './contract.ts';
import { fileEntity } from './file.ts';

/** The "main" entity a transaction is about (`transaction.entity_id`), 0 when none. */
export function mainEntity(item: RecordItem): bigint {
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as Record<string, unknown> | undefined;
  const receipt = item.record.receipt;
  const get = (field: string) => body?.[field] as Parameters<typeof accountId>[0];
  switch (item.type) {
    case 7:
    case 8:
    case 9:
    case 22:
      return contractEntity({ item });
    case 50:
      // The contract of the function result, as the importer's EthereumTransactionHandler.getEntity takes it.
      return contractId((item.record.contractCreateResult ?? item.record.contractCallResult)?.contractID);
    case 10:
      return accountId((body?.liveHash as { accountId?: Parameters<typeof accountId>[0] } | undefined)?.accountId);
    case 11:
      return accountId(receipt?.accountID);
    case 13:
      return accountId(get('accountOfLiveHash'));
    case 23:
      return fileId(get('update_file'));
    case 12:
      return accountId(get('deleteAccountID'));
    case 15:
      return accountId(get('accountIDToUpdate'));
    case 16:
    case 17:
    case 18:
    case 19:
    case 20:
    case 21:
      return fileEntity({ item });
    case 24:
      return topicId(receipt?.topicID);
    case 25:
    case 26:
    case 27:
      return topicId(get('topicID'));
    case 29:
      return tokenId(receipt?.tokenID);
    case 35:
    case 36:
    case 37:
    case 38:
    case 39:
    case 46:
    case 47:
    case 53:
      return tokenId(get('token'));
    case 31:
    case 32:
    case 33:
    case 34:
    case 40:
    case 41:
      return accountId(get('account'));
    case 54:
    case 55:
      return accountId(get('account_id'));
    case 57:
      return accountId(get('owner')) || item.payerAccountId;
    case 45:
      return tokenId(get('token_id'));
    case 75: {
      // HookStore: the account or contract that owns the hook (HookStoreTransactionHandler.getEntity).
      const owner = (get('hook_id') as { entity_id?: Record<string, Parameters<typeof accountId>[0]> } | undefined)
        ?.entity_id;
      return owner?.account_id ? accountId(owner.account_id) : contractId(owner?.contract_id);
    }
    case 42:
      return scheduleId(receipt?.scheduleID);
    case 43:
    case 44:
      return scheduleId(get('scheduleID'));
    default:
      return 0n;
  }
}

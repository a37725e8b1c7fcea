import { fields } from '../../format/protobuf-reader.ts';
import { prefixedHex } from './hex.ts';

/** ContractFunctionResult.sender_id (13), an AccountID: accountNum (3) or alias (4), one of. */
const SENDER_ID = 13;
const ACCOUNT_NUM = 3;
const ALIAS = 4;

/**
 * The sender's EVM address when a contract result names its sender only by alias: the alias of the serialized
 * ContractFunctionResult's `sender_id`. Null when absent, when the account is given by number, or when the bytes
 * do not parse.
 */
export function senderAliasAddress(functionResult: Uint8Array | null): string | null {
  if (functionResult === null || functionResult.length === 0) return null;
  try {
    let alias: Uint8Array | null = null;
    for (const field of fields(functionResult)) {
      if (field.number !== SENDER_ID || !('bytes' in field)) continue;
      for (const account of fields(field.bytes)) {
        if (account.number === ALIAS && 'bytes' in account) alias = account.bytes;
        else if (account.number === ACCOUNT_NUM) alias = null;
      }
    }
    return alias !== null && alias.length > 0 ? prefixedHex(alias) : null;
  } catch {
    return null;
  }
}

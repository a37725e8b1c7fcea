/**
 * HRC-904 `setUnlimitedAutomaticAssociations(bool)` through an account's redirect proxy: the CryptoUpdate of that
 * account's automatic association limit to -1 (unlimited) or 0 the node dispatches
 * (SetUnlimitedAutoAssociationsTranslator/Call), answering its response code as an int64 without reverting. The
 * account's key must be active for the call unless the account is the sender.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { encode, int } from './abi.ts';
import { signs } from './call-parties.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { halt, type ResponseCodeName, responseCode, success } from './results.ts';

const UNLIMITED = -1;
const NONE = 0;

export async function setUnlimitedAutoAssociations(call: HtsCall, target: Uint8Array): Promise<ExecResult> {
  if (call.isStatic) return halt(call.gasLimit);
  const unlimited = call.args.bool(0);
  const status = await (async (): Promise<ResponseCodeName> => {
    const account = await accountAt(call, target);
    if (!account) return 'INVALID_ACCOUNT_ID';
    if (!(await signs(call, account))) return 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE';
    if (account.deleted) return 'ACCOUNT_DELETED';
    if (!unlimited && (await call.tokens.usedAutoAssociations(account.id)) > NONE) {
      return 'EXISTING_AUTOMATIC_ASSOCIATIONS_EXCEED_GIVEN_LIMIT';
    }
    call.tokens.putMaxAutoAssociations(account.id, unlimited ? UNLIMITED : NONE);
    return 'SUCCESS';
  })();
  return success(canonicalGas('CRYPTO_UPDATE'), call.gasLimit, encode(int(responseCode(status))));
}

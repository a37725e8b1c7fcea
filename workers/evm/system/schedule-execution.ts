/**
 * A schedule's execution inside a call (AbstractScheduleHandler.tryToExecuteSchedule: the scheduled body dispatched
 * as a child paid by the payer, with the schedule's signatories as its only keys): a CryptoTransfer through the
 * transfer dispatch, a TokenCreate as the create call, a TokenUpdate as the update call, a TokenMint as `mintToken`, a ContractCall as a frame of its
 * own (scheduled-call.ts). The child's failure is its own: the signing or creation that executed it still succeeds.
 */
import { longZeroAddress } from '../addresses.ts';
import { AbiArgs, address, array, bytes, encode, int } from './abi.ts';
import { withParties } from './call-parties.ts';
import { dispatchTransfer } from './crypto-transfer.ts';
import type { SignableSchedule } from './hss-schedule-sign.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { TOKEN_ADMIN_FUNCTIONS } from './hts-token-admin.ts';
import type { Signatory } from './schedule-keys.ts';
import { runScheduledCall } from './scheduled-call.ts';
import { executeCreation } from './scheduled-creation.ts';

/** The HTS mint a scheduled TokenMint runs as (its outcome is the scheduled transaction's). */
const MINT_SIGNATURE = 'mintToken(address,int64,bytes[])';
const MINT = (() => {
  const found = TOKEN_ADMIN_FUNCTIONS.find(([name]) => name === MINT_SIGNATURE);
  if (!found) throw new Error(`no ${MINT_SIGNATURE}`);
  return found[1];
})();

/**
 * Runs the scheduled body as a child of the call, paid by the payer and authorized by the signatories alone; its
 * outcome is the child's, not the signing's. False for a kind not executed here.
 */
export async function execute(
  call: HtsCall,
  schedule: Pick<SignableSchedule, 'payer' | 'body'>,
  signatories: ReadonlySet<Signatory>,
): Promise<boolean> {
  const { body } = schedule;
  const payerAddress = longZeroAddress(schedule.payer);
  const payer = await accountAt(call, payerAddress);
  const actingOn = (args: AbiArgs) =>
    withParties(
      { ...call, args, sender: payerAddress, origin: payerAddress },
      { sender: payer, signers: { contract: [], delegated: false, originKey: undefined, signatories } },
    );
  const acting = actingOn(call.args);
  if (body.kind === 'CRYPTO_TRANSFER') await dispatchTransfer(acting, body.transfer, false);
  else if (body.kind === 'TOKEN_CREATE') await executeCreation(acting, body.input);
  else if (body.kind === 'CONTRACT_CALL' && payer) await runScheduledCall(call, payer, body);
  else if (body.kind === 'TOKEN_UPDATE') await body.run(actingOn(body.args));
  else if (body.kind === 'TOKEN_MINT') {
    const metadata = array(body.metadata.map((item) => bytes(item)));
    await MINT(actingOn(new AbiArgs(encode(address(body.token), int(body.amount), metadata))));
  } else return false;
  return true;
}

/** Who a state-changing HTS call acts for: its sender account and the keys the call can sign with. */
import { decodeEntityId } from '../../params/entity-id.ts';
import { entityIdOfLongZero, longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { callerIsDelegated } from './frames.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { keySatisfied, type Signers } from './key-checks.ts';

export interface Parties {
  /** The sender's account or contract; undefined when the sender is no entity of the ledger. */
  readonly sender: EvmEntity | undefined;
  readonly signers: Signers;
}

const cache = new WeakMap<HtsCall, Promise<Parties>>();

/** `ledger.numReservedSystemEntities`: accounts up to 0.0.750 belong to the system. */
const LAST_SYSTEM_ACCOUNT = 750n;

async function load(call: HtsCall): Promise<Parties> {
  const [sender, origin] = await Promise.all([accountAt(call, call.sender), accountAt(call, call.origin)]);
  const contract =
    sender?.type === 'CONTRACT' ? [longZeroAddress(sender.id), ...(sender.evmAddress ? [sender.evmAddress] : [])] : [];
  return { sender, signers: { contract, delegated: callerIsDelegated(call.evm), originKey: origin?.key } };
}

export function partiesOf(call: HtsCall): Promise<Parties> {
  let parties = cache.get(call);
  if (!parties) {
    parties = load(call);
    cache.set(call, parties);
  }
  return parties;
}

/** `call` acting for other parties: a scheduled transaction's payer and signatories when the schedule executes. */
export function withParties<C extends HtsCall>(call: C, parties: Parties): C {
  const acting = { ...call };
  cache.set(acting, Promise.resolve(parties));
  return acting;
}

/** Whether `account` signs the call: it is the sender, or its key is active. */
export async function signs(call: HtsCall, account: EvmEntity): Promise<boolean> {
  const { sender, signers } = await partiesOf(call);
  return account.id === sender?.id || keySatisfied(account.key, signers);
}

/** Whether an address is a system account (0.0.1 to 0.0.750), to which a transfer may not credit hbar. */
export function isSystemAccount(call: HtsCall, address: Uint8Array): boolean {
  const { shard, realm } = call.reader.settings;
  const id = entityIdOfLongZero(address, shard, realm);
  const num = id === undefined ? undefined : decodeEntityId(id)?.num;
  return num !== undefined && num >= 1n && num <= LAST_SYSTEM_ACCOUNT;
}

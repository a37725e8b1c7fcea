/** Crypto service transactions: hbar transfers, account create / update / delete. */
import { accountPb, i64, TREASURY } from '../ledger/ids.ts';
import { keyPb } from '../network/keys.ts';
import { type Network, SUCCESS } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { HBAR, maybeMemo, otherUser, payerWith } from './pick.ts';

const INSUFFICIENT_ACCOUNT_BALANCE = 28;
const AUTO_RENEW_SECONDS = '7776000';

/** One payer sends hbar to one or two accounts; about 1 in 100 asks for more than it has and fails. */
export async function hbarTransfer(net: Network): Promise<boolean> {
  const payer = payerWith(net, 2n * HBAR);
  if (!payer) return false;
  const receivers = [otherUser(net, payer.num), ...(net.random.chance(0.2) ? [otherUser(net, payer.num)] : [])];
  const targets = [...new Set(receivers.filter((r) => r !== undefined).map((r) => r.num))];
  if (targets.length === 0) return false;
  const fails = net.random.chance(0.01);
  const spendable = payer.balance - HBAR;
  const each = fails ? payer.balance : net.random.bigint(1_000n, spendable / BigInt(targets.length * 4) + 1_000n);
  const body = new HbarTransfers().add(payer.num, -each * BigInt(targets.length));
  for (const target of targets) body.add(target, each);
  await net.submit({
    payer: payer.num,
    body: { cryptoTransfer: { transfers: { accountAmounts: body.toPb() } } },
    price: 'cryptoTransfer',
    memo: maybeMemo(net, 0.2),
    execute: () => (fails ? { status: INSUFFICIENT_ACCOUNT_BALANCE } : { transfers: body }),
  });
  return true;
}

/** The treasury tops up a user, keeping payers funded over long runs. */
export async function faucet(net: Network, target?: bigint, amount?: bigint): Promise<boolean> {
  const to = target ?? net.ledger.users.pick(net.random);
  if (to === undefined) return false;
  const value = amount ?? net.random.bigint(100n, 10_000n) * HBAR;
  const body = new HbarTransfers().add(TREASURY, -value).add(to, value);
  await net.submit({
    payer: TREASURY,
    body: { cryptoTransfer: { transfers: { accountAmounts: body.toPb() } } },
    price: 'cryptoTransfer',
    memo: 'faucet',
    execute: () => ({ transfers: body }),
  });
  return true;
}

/**
 * A new account funded by its creator. A quarter of the keys are ECDSA secp256k1 with the EVM address as alias;
 * auto-association slots vary (0, a few, unlimited) so airdrops and transfers meet every case.
 */
export async function createAccount(net: Network, funder = payerWith(net, 50n * HBAR)?.num): Promise<boolean> {
  if (funder === undefined) return false;
  const creator = net.ledger.account(funder);
  const key = net.keys.next(net.random.chance(0.25) ? 'secp256k1' : 'ed25519');
  const evmAddress = key.evmAddress;
  const initial =
    funder === TREASURY
      ? net.random.bigint(1_000n, 100_000n) * HBAR
      : net.random.bigint(1n, creator.balance / (4n * HBAR)) * HBAR;
  const maxAuto = net.random.pick([0, 0, 1, 5, 10, -1]);
  const memo = maybeMemo(net, 0.3);
  const stakedNodeId = net.random.chance(0.3) ? net.random.int(0, net.nodeCount - 1) : undefined;
  let created = 0n;
  await net.submit({
    payer: funder,
    body: {
      cryptoCreateAccount: {
        key: keyPb(key),
        initialBalance: i64(initial),
        autoRenewPeriod: { seconds: AUTO_RENEW_SECONDS },
        ...(memo ? { memo } : {}),
        ...(maxAuto !== 0 ? { max_automatic_token_associations: maxAuto } : {}),
        ...(evmAddress ? { alias: evmAddress } : {}),
        ...(stakedNodeId !== undefined ? { staked_node_id: stakedNodeId } : {}),
      },
    },
    price: 'cryptoCreate',
    execute: () => {
      created = net.ledger.allocateEntity();
      net.ledger.createAccount(created, key, { memo, evmAddress, maxAutoAssociations: maxAuto, stakedNodeId });
      return {
        transfers: new HbarTransfers().add(funder, -initial).add(created, initial),
        receipt: { accountID: accountPb(created) },
        ...(evmAddress ? { record: { evm_address: evmAddress } } : {}),
      };
    },
  });
  return created !== 0n;
}

/** An account changes its memo and auto-association limit. */
export async function updateAccount(net: Network): Promise<boolean> {
  const account = payerWith(net, HBAR);
  if (!account) return false;
  const memo = net.random.words(net.random.int(1, 3));
  const maxAuto = Math.max(account.maxAutoAssociations, net.random.pick([1, 5, 10, -1]));
  await net.submit({
    payer: account.num,
    body: {
      cryptoUpdateAccount: {
        accountIDToUpdate: accountPb(account.num),
        memo: { value: memo },
        max_automatic_token_associations: { value: maxAuto },
      },
    },
    price: 'cryptoUpdate',
    execute: () => {
      account.memo = memo;
      account.maxAutoAssociations = maxAuto === -1 || account.maxAutoAssociations === -1 ? -1 : maxAuto;
      return {};
    },
  });
  return true;
}

/**
 * An account without token holdings, allowances, airdrops or schedules closes and sends what is left (after
 * its own fee) to another account. The ledger keeps it, deleted, with balance 0.
 */
export async function deleteAccount(net: Network): Promise<boolean> {
  const { ledger } = net;
  const account = payerWith(net, HBAR);
  if (!account || !isDisposable(net, account.num)) return false;
  const beneficiary = otherUser(net, account.num);
  if (!beneficiary) return false;
  await net.submit({
    payer: account.num,
    body: { cryptoDelete: { deleteAccountID: accountPb(account.num), transferAccountID: accountPb(beneficiary.num) } },
    price: 'cryptoDelete',
    execute: () => ({ status: SUCCESS, transfers: new HbarTransfers() }),
    afterFee: (fee) => {
      const rest = account.balance - fee;
      return new HbarTransfers().add(account.num, -rest).add(beneficiary.num, rest);
    },
  });
  account.deleted = true;
  ledger.users.delete(account.num);
  return true;
}

function isDisposable(net: Network, num: bigint): boolean {
  const { ledger } = net;
  const account = ledger.account(num);
  if (account.tokens.size > 0) return false;
  for (const token of ledger.tokens.values()) if (token.treasury === num) return false;
  for (const key of ledger.allowanceKeys.values()) if (key.includes(`${num}/`) || key.endsWith(`/${num}`)) return false;
  for (const key of ledger.airdropKeys.values()) if (key.split('/').slice(0, 2).includes(String(num))) return false;
  for (const id of ledger.pendingSchedules.values()) {
    const schedule = ledger.schedules.get(id);
    if (schedule && (schedule.payer === num || schedule.transfers.some((t) => t.account === num))) return false;
  }
  return true;
}

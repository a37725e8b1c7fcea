/** CryptoService transactions submitted to a node: account create, update, delete. (Transfers: transfer.ts.) */
import { accountPb } from '../../ledger/ids.ts';
import type { LedgerKey } from '../../ledger/ledger.ts';
import { singleKey } from '../../network/keys.ts';
import { HbarTransfers } from '../../network/transfers.ts';
import { accountNumOf, nsOf } from '../entity-ids.ts';
import {
  bigOf,
  checkMemo,
  DEFAULT_AUTO_RENEW_SECONDS,
  ensure,
  type Pb,
  type TxHandler,
  textOf,
  wrapped,
} from '../handling.ts';
import { keyFromPb } from '../signatures.ts';
import { liveAccount } from './lookups.ts';

const MIN_AUTO_RENEW = 2_592_000n;
const MAX_AUTO_RENEW = 8_000_001n;

function checkAutoRenew(period: unknown): void {
  if (!period) return;
  const seconds = bigOf((period as Pb).seconds);
  ensure(seconds >= MIN_AUTO_RENEW && seconds <= MAX_AUTO_RENEW, 'AUTORENEW_DURATION_NOT_IN_RANGE');
}

function stakingOf(data: Pb): { stakedNodeId?: number; stakedAccountId?: bigint } {
  if (data.staked_node_id !== undefined && data.staked_node_id !== null)
    return { stakedNodeId: Number(data.staked_node_id) };
  return {};
}

export const cryptoCreate: TxHandler = {
  price: () => ({ kind: 'cryptoCreate' }),
  pure: (data) => {
    ensure(data.key || (data.alias instanceof Uint8Array && data.alias.length > 0), 'KEY_REQUIRED');
    ensure(data.key === undefined || keyFromPb(data.key), 'BAD_ENCODING');
    ensure(bigOf(data.initialBalance) >= 0n, 'INVALID_INITIAL_BALANCE');
    checkMemo(textOf(data.memo));
    checkAutoRenew(data.autoRenewPeriod);
    const max = Number(data.max_automatic_token_associations ?? 0);
    ensure(max >= -1, 'INVALID_MAX_AUTO_ASSOCIATIONS');
  },
  handle: ({ net, data, payer, fee, signatures }) => {
    const { ledger } = net;
    const key = keyFromPb(data.key) as LedgerKey;
    const alias = data.alias instanceof Uint8Array && data.alias.length > 0 ? new Uint8Array(data.alias) : undefined;
    const evmAddress = alias ?? undefined;
    if (alias) {
      ensure(alias.length === 20, 'INVALID_ALIAS_KEY');
      ensure(ledger.entityOfAddress(alias) === undefined, 'ALIAS_ALREADY_ASSIGNED');
    }
    const initial = bigOf(data.initialBalance);
    const funder = ledger.account(payer);
    ensure(funder.balance - fee >= initial, 'INSUFFICIENT_PAYER_BALANCE');
    const stakedNodeId = stakingOf(data).stakedNodeId;
    if (stakedNodeId !== undefined) ensure(stakedNodeId >= 0 && stakedNodeId < net.nodeCount, 'INVALID_STAKING_ID');
    // HIP-583: an EVM address alias of another key than the account's needs that key's signature, found among the
    // signatures by the address it hashes to; the account's own key signs when it must sign to receive.
    const requiredKeys: LedgerKey[] = data.receiverSigRequired ? [key] : [];
    const own = singleKey(key)?.evmAddress;
    if (alias && !(own && Buffer.from(own).equals(alias))) {
      const aliasKey = signatures.namedKeys().find((k) => k.evmAddress && Buffer.from(k.evmAddress).equals(alias));
      ensure(aliasKey, 'INVALID_SIGNATURE');
      requiredKeys.push(aliasKey);
    }
    return {
      requiredKeys,
      execute: ({ consensusNs }) => {
        const num = ledger.allocateEntity();
        const memo = textOf(data.memo);
        const account = ledger.createAccount(
          num,
          key,
          {
            memo,
            evmAddress,
            maxAutoAssociations: Number(data.max_automatic_token_associations ?? 0),
            ...(stakedNodeId !== undefined ? { stakedNodeId } : {}),
          },
          false,
        );
        const renew = data.autoRenewPeriod ? bigOf((data.autoRenewPeriod as Pb).seconds) : DEFAULT_AUTO_RENEW_SECONDS;
        account.autoRenewSeconds = renew;
        account.expirationNs = consensusNs + renew * 1_000_000_000n;
        if (data.receiverSigRequired) account.receiverSigRequired = true;
        if (data.decline_reward) account.declineReward = true;
        return {
          transfers: new HbarTransfers().add(payer, -initial).add(num, initial),
          receipt: { accountID: accountPb(num) },
          ...(evmAddress ? { record: { evm_address: evmAddress } } : {}),
        };
      },
    };
  },
};

export const cryptoUpdate: TxHandler = {
  price: () => ({ kind: 'cryptoUpdate' }),
  pure: (data) => {
    ensure(data.accountIDToUpdate, 'ACCOUNT_ID_DOES_NOT_EXIST');
    if (data.key) ensure(keyFromPb(data.key), 'BAD_ENCODING');
    const memo = wrapped<string>(data.memo);
    if (memo !== undefined) checkMemo(memo);
    checkAutoRenew(data.autoRenewPeriod);
    const max = wrapped<number>(data.max_automatic_token_associations);
    if (max !== undefined) ensure(max >= -1, 'INVALID_MAX_AUTO_ASSOCIATIONS');
  },
  handle: ({ net, data }) => {
    const account = liveAccount(net.ledger, data.accountIDToUpdate);
    const newKey = data.key ? keyFromPb(data.key) : undefined;
    const requiredKeys = [account.key, newKey].filter((k): k is LedgerKey => k !== undefined);
    const expiry = data.expirationTime ? nsOf(data.expirationTime) : undefined;
    if (expiry !== undefined) ensure(expiry >= (account.expirationNs ?? 0n), 'EXPIRATION_REDUCTION_NOT_ALLOWED');
    return {
      requiredKeys,
      execute: () => {
        if (newKey) account.key = newKey;
        const memo = wrapped<string>(data.memo);
        if (memo !== undefined) account.memo = memo;
        const max = wrapped<number>(data.max_automatic_token_associations);
        if (max !== undefined) account.maxAutoAssociations = max;
        const receiverSig = wrapped<boolean>(data.receiverSigRequiredWrapper);
        if (receiverSig !== undefined) account.receiverSigRequired = receiverSig;
        if (data.autoRenewPeriod) account.autoRenewSeconds = bigOf((data.autoRenewPeriod as Pb).seconds);
        if (expiry !== undefined) account.expirationNs = expiry;
        if (data.staked_node_id !== undefined && data.staked_node_id !== null) {
          const node = Number(data.staked_node_id);
          if (node < 0) delete account.stakedNodeId;
          else account.stakedNodeId = node;
        }
        const decline = wrapped<boolean>(data.decline_reward);
        if (decline !== undefined) account.declineReward = decline;
        return {};
      },
    };
  },
};

export const cryptoDelete: TxHandler = {
  price: () => ({ kind: 'cryptoDelete' }),
  pure: (data) => {
    ensure(data.deleteAccountID, 'ACCOUNT_ID_DOES_NOT_EXIST');
    ensure(data.transferAccountID, 'ACCOUNT_ID_DOES_NOT_EXIST');
  },
  handle: ({ net, data, payer }) => {
    const { ledger } = net;
    const account = liveAccount(ledger, data.deleteAccountID);
    const beneficiaryNum = accountNumOf(ledger, data.transferAccountID);
    ensure(beneficiaryNum !== account.num, 'TRANSFER_ACCOUNT_SAME_AS_DELETE_ACCOUNT');
    const beneficiary = liveAccount(ledger, data.transferAccountID);
    for (const token of account.tokens) {
      ensure(ledger.tokenBalance(account.num, token) === 0n, 'TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES');
    }
    for (const token of ledger.tokens.values()) {
      ensure(token.treasury !== account.num || token.deleted, 'ACCOUNT_IS_TREASURY');
    }
    const requiredKeys = [account.key, beneficiary.receiverSigRequired ? beneficiary.key : undefined].filter(
      (k): k is LedgerKey => k !== undefined,
    );
    return {
      requiredKeys,
      execute: () => {
        for (const token of [...account.tokens]) {
          ledger.tokenBalances.delete(`${account.num}/${token}`);
          ledger.associations.get(token)?.delete(account.num);
        }
        account.tokens.clear();
        account.deleted = true;
        ledger.users.delete(account.num);
        return { transfers: new HbarTransfers() };
      },
      // What the deleted account still holds after the fee goes to the beneficiary.
      afterFee: (fee) => {
        const rest = account.balance - (account.num === payer ? fee : 0n);
        return new HbarTransfers().add(account.num, -rest).add(beneficiary.num, rest);
      },
    };
  },
};

/**
 * SmartContractService transactions submitted to a node: ContractCreate (initcode in the body, or hex text in a
 * file, with constructor parameters), ContractCall, ContractUpdate and ContractDelete, run on the simulator's EVM.
 * The payer pays the gas used at the network's price plus the base price; a failed execution is charged too.
 */
import { contractPb, longZeroAddress } from '../../ledger/ids.ts';
import type { Contract, Ledger, LedgerKey } from '../../ledger/ledger.ts';
import { PRICE_TINYCENTS, tinybarsOf } from '../../network/fees.ts';
import type { Outcome } from '../../network/network.ts';
import { HbarTransfers } from '../../network/transfers.ts';
import { nsOf, numOf } from '../entity-ids.ts';
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
import { code } from '../node-proto.ts';
import { keyFromPb } from '../signatures.ts';
import {
  applyStorageToModel,
  checkIntrinsicGas,
  type EvmRun,
  gasCost,
  runEvm,
  writeSystemChildren,
} from './evm-run.ts';
import { liveAccount, liveContract } from './lookups.ts';

const bytes = (value: unknown) => (value instanceof Uint8Array ? new Uint8Array(value) : new Uint8Array());

/** The initcode a file holds: hex text, as the SDK and the node write it (an optional 0x, whitespace ignored). */
export function initcodeOfFile(ledger: Ledger, fileId: unknown): Uint8Array {
  const num = numOf(fileId, 'fileNum');
  const meta = ledger.fileMeta.get(num);
  ensure(meta && !meta.deleted, 'INVALID_FILE_ID');
  const text = new TextDecoder().decode(ledger.files.get(num) ?? new Uint8Array()).trim();
  ensure(text.length > 0, 'CONTRACT_FILE_EMPTY');
  const hex = text.startsWith('0x') ? text.slice(2) : text;
  ensure(/^[0-9a-fA-F]*$/.test(hex) && hex.length % 2 === 0, 'ERROR_DECODING_BYTESTRING');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function gasFee(ledger: Ledger, gasUsed: bigint, base: bigint): bigint {
  return gasCost(gasUsed) + tinybarsOf(base, ledger.exchangeRate);
}

/** A new contract in the model: a user's, kept out of the pools the generated load calls. */
export function newContract(
  ledger: Ledger,
  num: bigint,
  fields: { creator: bigint; runtime: Uint8Array; balance: bigint; settings: Contract['settings'] },
): Contract {
  const contract: Contract = {
    num,
    kind: 'user',
    creator: fields.creator,
    storage: new Map(),
    erc20Balances: new Map(),
    runtime: fields.runtime,
    balance: fields.balance,
    ...(fields.settings ? { settings: fields.settings } : {}),
  };
  ledger.contracts.set(num, contract);
  return contract;
}

/**
 * The contract a creation is making, in the model while its constructor runs: on the node the entity exists during
 * its creation, so a constructor may call 0x167 for its own account. The creation replaces it when it succeeds and
 * `abandon` removes it when it fails.
 */
export function reserveContract(ledger: Ledger, num: bigint, creator: bigint): { abandon(): void } {
  newContract(ledger, num, { creator, runtime: new Uint8Array(), balance: 0n, settings: undefined });
  return { abandon: () => ledger.contracts.delete(num) };
}

export const contractCreate: TxHandler = {
  price: (data) => ({ kind: undefined, gas: bigOf(data.gas), base: 'contractCreate' }),
  pure: (data) => {
    ensure(data.initcode || data.fileID, 'INVALID_FILE_ID');
    ensure(bigOf(data.gas) > 0n, 'INSUFFICIENT_GAS');
    ensure(bigOf(data.initialBalance) >= 0n, 'CONTRACT_NEGATIVE_VALUE');
    checkMemo(textOf(data.memo));
    if (data.adminKey) ensure(keyFromPb(data.adminKey), 'SERIALIZATION_FAILED');
  },
  handle: ({ net, evm, data, payer, fee }) => {
    const { ledger } = net;
    const initcode = data.initcode ? bytes(data.initcode) : initcodeOfFile(ledger, data.fileID);
    const parameters = bytes(data.constructorParameters);
    const full = new Uint8Array(initcode.length + parameters.length);
    full.set(initcode);
    full.set(parameters, initcode.length);
    const gas = bigOf(data.gas);
    checkIntrinsicGas(full, true, gas);
    const value = bigOf(data.initialBalance);
    const funder = ledger.account(payer);
    ensure(funder.balance - fee - gasCost(gas) >= value, 'INSUFFICIENT_PAYER_BALANCE');
    const adminKey = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const autoRenew = data.auto_renew_account_id ? liveAccount(ledger, data.auto_renew_account_id) : undefined;
    let run: EvmRun | undefined;
    return {
      requiredKeys: [adminKey, autoRenew?.key].filter((k): k is LedgerKey => k !== undefined),
      follow: writeSystemChildren(net, () => run, payer),
      execute: async ({ consensusNs }): Promise<Outcome> => {
        const num = ledger.allocateEntity();
        ledger.claimEvmAddress(longZeroAddress(num), num);
        const seconds = data.autoRenewPeriod ? bigOf((data.autoRenewPeriod as Pb).seconds) : DEFAULT_AUTO_RENEW_SECONDS;
        const reserved = reserveContract(ledger, num, payer);
        run = await runEvm(ledger, evm, {
          consensusNs,
          sender: payer,
          contract: num,
          create: true,
          data: full,
          gas,
          value,
          parameters,
        });
        const charged = gasFee(ledger, run.outcome.gasUsed, PRICE_TINYCENTS.contractCreate);
        if (run.failure) {
          reserved.abandon();
          return {
            status: code(run.failure),
            fee: charged,
            record: { contractCreateResult: run.result },
            sidecars: run.sidecars,
          };
        }
        newContract(ledger, num, {
          creator: payer,
          runtime: run.outcome.runtime,
          balance: 0n,
          settings: {
            memo: textOf(data.memo),
            ...(adminKey ? { adminKey } : {}),
            ...(autoRenew ? { autoRenewAccount: autoRenew.num } : {}),
            autoRenewSeconds: seconds,
            expirationNs: consensusNs + seconds * 1_000_000_000n,
            maxAutoAssociations: Number(data.max_automatic_token_associations ?? 0),
          },
        });
        applyStorageToModel(ledger, run.outcome);
        const transfers = new HbarTransfers().add(payer, -value).add(num, value);
        for (const [account, amount] of run.systemFees.amounts) transfers.add(account, amount);
        return {
          fee: charged,
          transfers,
          receipt: { contractID: contractPb(num) },
          record: { contractCreateResult: run.result },
          sidecars: run.sidecars,
        };
      },
    };
  },
};

export const contractCall: TxHandler = {
  price: (data) => ({ kind: undefined, gas: bigOf(data.gas), base: 'contractCallBase' }),
  pure: (data) => {
    ensure(data.contractID, 'INVALID_CONTRACT_ID');
    ensure(bigOf(data.amount) >= 0n, 'CONTRACT_NEGATIVE_VALUE');
  },
  handle: ({ net, evm, data, payer, fee }) => {
    const { ledger } = net;
    const contract = liveContract(ledger, data.contractID);
    const input = bytes(data.functionParameters);
    const gas = bigOf(data.gas);
    checkIntrinsicGas(input, false, gas);
    const value = bigOf(data.amount);
    ensure(ledger.account(payer).balance - fee - gasCost(gas) >= value, 'INSUFFICIENT_PAYER_BALANCE');
    let evmRun: EvmRun | undefined;
    return {
      requiredKeys: [],
      follow: writeSystemChildren(net, () => evmRun, payer),
      execute: async ({ consensusNs }): Promise<Outcome> => {
        const run = await runEvm(ledger, evm, {
          consensusNs,
          sender: payer,
          contract: contract.num,
          create: false,
          data: input,
          gas,
          value,
        });
        evmRun = run;
        const transfers = new HbarTransfers();
        if (!run.failure && value > 0n) transfers.add(payer, -value).add(contract.num, value);
        for (const [account, amount] of run.systemFees.amounts) transfers.add(account, amount);
        return {
          ...(run.failure ? { status: code(run.failure) } : {}),
          fee: gasFee(ledger, run.outcome.gasUsed, PRICE_TINYCENTS.contractCallBase),
          ...(transfers.amounts.size === 0 ? {} : { transfers }),
          receipt: { contractID: contractPb(contract.num) },
          record: { contractCallResult: run.result },
          sidecars: run.sidecars,
        };
      },
    };
  },
};

function contractAdminKey(contract: Contract): LedgerKey {
  const key = contract.settings?.adminKey;
  const immutable = !key || key.kind === 'contract' || (key.kind === 'list' && key.keys.length === 0);
  ensure(key && !immutable, 'MODIFYING_IMMUTABLE_CONTRACT');
  return key;
}

export const contractUpdate: TxHandler = {
  price: () => ({ kind: 'contractUpdate' }),
  pure: (data) => {
    ensure(data.contractID, 'INVALID_CONTRACT_ID');
    const memo = wrapped<string>(data.memoWrapper);
    if (memo !== undefined) checkMemo(memo);
  },
  handle: ({ net, data }) => {
    const contract = liveContract(net.ledger, data.contractID);
    const onlyExpiry = Object.keys(data).every((field) => field === 'contractID' || field === 'expirationTime');
    const newAdmin = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const requiredKeys = onlyExpiry ? [] : [contractAdminKey(contract), ...(newAdmin ? [newAdmin] : [])];
    return {
      requiredKeys,
      execute: () => {
        const settings = contract.settings ?? { memo: '' };
        contract.settings = settings;
        if (newAdmin) settings.adminKey = newAdmin;
        const memo = wrapped<string>(data.memoWrapper);
        if (memo !== undefined) settings.memo = memo;
        if (data.expirationTime) settings.expirationNs = nsOf(data.expirationTime);
        if (data.autoRenewPeriod) settings.autoRenewSeconds = bigOf((data.autoRenewPeriod as Pb).seconds);
        if (data.auto_renew_account_id) {
          // 0.0.0 removes the auto-renew account; the contract's info then names 0.0.0, as the node's does.
          settings.autoRenewAccount = numOf(data.auto_renew_account_id, 'accountNum');
        }
        return {};
      },
    };
  },
};

export const contractDelete: TxHandler = {
  price: () => ({ kind: 'contractDelete' }),
  pure: (data) => {
    ensure(data.contractID, 'INVALID_CONTRACT_ID');
    ensure(!data.permanent_removal, 'PERMANENT_REMOVAL_REQUIRES_SYSTEM_INITIATION');
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const contract = liveContract(ledger, data.contractID);
    const key = contractAdminKey(contract);
    const to = data.transferAccountID
      ? liveAccount(ledger, data.transferAccountID).num
      : data.transferContractID
        ? liveContract(ledger, data.transferContractID).num
        : undefined;
    ensure(to !== undefined || contract.balance === 0n, 'OBTAINER_REQUIRED');
    ensure(to !== contract.num, 'OBTAINER_SAME_CONTRACT_ID');
    return {
      requiredKeys: [key],
      execute: () => {
        const settings = contract.settings ?? { memo: '' };
        contract.settings = { ...settings, deleted: true };
        const transfers = new HbarTransfers();
        if (to !== undefined) transfers.add(contract.num, -contract.balance).add(to, contract.balance);
        return { transfers, receipt: { contractID: contractPb(contract.num) } };
      },
    };
  },
};

/**
 * EthereumTransaction submitted to a node, as a JSON-RPC relay sends one: the raw signed Ethereum transaction
 * (call data inline or in a file), its signer found by the recovered address, its nonce and chain checked, then a
 * call or a creation on the simulator's EVM. The signer pays the gas at its offered price up to the network's; the
 * relay (the payer) pays the rest from `max_gas_allowance` and the base price. The nonce moves on whatever the
 * execution does.
 */
import { CHAIN_ID } from '../../evm/ethereum-tx.ts';
import { contractPb, FEE_COLLECTOR, i64, longZeroAddress, numOfLongZero } from '../../ledger/ids.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../../network/fees.ts';
import type { Outcome } from '../../network/network.ts';
import { HbarTransfers } from '../../network/transfers.ts';
import { signedEthereum, weibarsOf } from '../ethereum-sender.ts';
import { bigOf, ensure, type Pb, type TxHandler } from '../handling.ts';
import { code } from '../node-proto.ts';
import { initcodeOfFile, newContract, reserveContract } from './contract.ts';
import {
  applyStorageToModel,
  checkIntrinsicGas,
  type EvmRun,
  gasCost,
  runEvm,
  writeSystemChildren,
} from './evm-run.ts';

const WEIBARS_PER_TINYBAR = 10_000_000_000n;

const raw = (data: Pb) =>
  data.ethereum_data instanceof Uint8Array ? new Uint8Array(data.ethereum_data) : new Uint8Array();

export const ethereumTransaction: TxHandler = {
  price: () => ({ kind: 'contractCallBase' }),
  pure: (data) => {
    ensure(raw(data).length > 0, 'INVALID_ETHEREUM_TRANSACTION');
    ensure(bigOf(data.max_gas_allowance) >= 0n, 'NEGATIVE_ALLOWANCE_AMOUNT');
  },
  handle: ({ net, evm, data, payer, fee }) => {
    const { ledger } = net;
    let signed: ReturnType<typeof signedEthereum>;
    try {
      const fileData = data.call_data ? initcodeOfFile(ledger, data.call_data) : undefined;
      signed = signedEthereum(raw(data), fileData);
    } catch {
      ensure(false, 'INVALID_ETHEREUM_TRANSACTION');
    }
    const { tx, callData, sender: senderAddress, hash } = signed;
    const chainId = tx.chainId === undefined ? undefined : bigOf(`0x${Buffer.from(tx.chainId).toString('hex') || '0'}`);
    ensure(chainId === undefined || chainId === CHAIN_ID, 'WRONG_CHAIN_ID');
    const senderNum = ledger.entityOfAddress(senderAddress);
    const signer = senderNum === undefined ? undefined : ledger.accounts.get(senderNum);
    ensure(signer && !signer.deleted, 'INVALID_ACCOUNT_ID');
    ensure(tx.nonce === signer.ethereumNonce, 'WRONG_NONCE');
    const create = tx.to.length === 0;
    const target = create ? undefined : (numOfLongZero(tx.to) ?? ledger.entityOfAddress(tx.to));
    const contract = target === undefined ? undefined : ledger.contracts.get(target);
    if (!create) ensure(contract && !contract.settings?.deleted, 'INVALID_CONTRACT_ID');
    const gas = tx.gasLimit;
    checkIntrinsicGas(callData, create, gas);
    const offered = weibarsOf(tx.gasPrice ?? tx.maxFeePerGas) / WEIBARS_PER_TINYBAR;
    const signerPrice = offered < GAS_PRICE_TINYBARS ? offered : GAS_PRICE_TINYBARS;
    const allowance = bigOf(data.max_gas_allowance);
    // What the relay may have to cover: the gas the signer's offered price leaves unpaid.
    ensure((GAS_PRICE_TINYBARS - signerPrice) * gas <= allowance, 'INSUFFICIENT_TX_FEE');
    const value = weibarsOf(tx.value) / WEIBARS_PER_TINYBAR;
    ensure(signer.balance - signerPrice * gas >= value, 'INSUFFICIENT_PAYER_BALANCE');
    ensure(
      ledger.account(payer).balance - fee >= (GAS_PRICE_TINYBARS - signerPrice) * gas,
      'INSUFFICIENT_PAYER_BALANCE',
    );
    let evmRun: EvmRun | undefined;
    return {
      requiredKeys: [],
      follow: writeSystemChildren(net, () => evmRun, payer),
      execute: async ({ consensusNs }): Promise<Outcome> => {
        signer.ethereumNonce = tx.nonce + 1n;
        signer.reportedNonce = tx.nonce + 1n;
        const num = create ? ledger.allocateEntity() : (contract?.num ?? 0n);
        if (create) ledger.claimEvmAddress(longZeroAddress(num), num);
        const reserved = create ? reserveContract(ledger, num, signer.num) : undefined;
        const run = await runEvm(ledger, evm, {
          consensusNs,
          sender: signer.num,
          contract: num,
          create,
          data: callData,
          gas,
          value,
        });
        evmRun = run;
        const used = run.outcome.gasUsed;
        const signerShare = used * signerPrice;
        const relayShare = gasCost(used) - signerShare;
        const transfers = new HbarTransfers()
          .add(signer.num, -signerShare)
          .add(payer, -relayShare)
          .add(FEE_COLLECTOR, signerShare + relayShare);
        if (!run.failure && value > 0n) transfers.add(signer.num, -value).add(num, value);
        for (const [account, amount] of run.systemFees.amounts) transfers.add(account, amount);
        if (run.failure) reserved?.abandon();
        if (create && !run.failure) {
          newContract(ledger, num, {
            creator: signer.num,
            runtime: run.outcome.runtime,
            balance: 0n,
            settings: { memo: '' },
          });
          applyStorageToModel(ledger, run.outcome);
        }
        const result = {
          ...run.result,
          signer_nonce: { value: i64(tx.nonce + 1n) },
          ...(value > 0n ? { amount: i64(value) } : {}),
        };
        return {
          ...(run.failure ? { status: code(run.failure) } : {}),
          fee: tinybarsOf(PRICE_TINYCENTS.contractCallBase, ledger.exchangeRate),
          transfers,
          ...(run.failure && create ? {} : { receipt: { contractID: contractPb(num) } }),
          record: { [create ? 'contractCreateResult' : 'contractCallResult']: result, ethereum_hash: hash },
          sidecars: run.sidecars,
        };
      },
    };
  },
};

/**
 * The simulated network's Hedera Token Service system contract (0x167), answered from the ledger model alone: the
 * classic `associateToken(address,address)` and `dissociateToken(address,address)` for the calling contract's own
 * account, with the response code as the consensus node's TokenAssociateToAccount / TokenDissociateFromAccount
 * handlers decide it and the gas its SystemContractGasCalculator derives from the dispatch's canonical price
 * (hiero-consensus-node `hedera-smart-contract-service-impl` `exec/gas/SystemContractGasCalculator.java`,
 * `hapi-fees` `canonical-prices.json`). Effects wait in the run until the transaction succeeds (`apply`).
 */

import type { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { numOfLongZero } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { addressWord, word } from './abi.ts';
import { haltResult, type SystemContract } from './hedera-evm.ts';

/** 0.0.359, the system contract's entity number. */
export const HTS_CONTRACT = 0x167n;

export type HtsOperation = 'associateToken' | 'dissociateToken';

const SUCCESS = 22;
const INVALID_TOKEN_ID = 167;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194;
const TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES = 195;
const INVALID_SIGNATURE = 7;

/** TokenAssociateToAccount and TokenDissociateFromAccount both cost $0.05 (DispatchType ASSOCIATE, DISSOCIATE). */
const ASSOCIATION_TINYCENTS = 500_000_000n;
/** The child transaction's gas price: $0.000_000_0852 a gas, in fee schedule units (a thousandth of a tinycent). */
const GAS_PRICE_FEE_SCHEDULE_UNITS = 852_000n;

/** The node's `gasRequirementFromTinycents`, its rounding included: the price as gas, plus a fifth. */
export function gasOfTinycents(tinycents: bigint): bigint {
  const gas = ((tinycents + GAS_PRICE_FEE_SCHEDULE_UNITS - 1n) * 1000n) / GAS_PRICE_FEE_SCHEDULE_UNITS;
  return gas + gas / 5n;
}

const selectorOf = (signature: string) => keccak_256(new TextEncoder().encode(signature)).subarray(0, 4);
const SIGNATURES: Record<HtsOperation, string> = {
  associateToken: 'associateToken(address,address)',
  dissociateToken: 'dissociateToken(address,address)',
};
const OPERATIONS = new Map(
  Object.entries(SIGNATURES).map(([op, signature]) => [
    Buffer.from(selectorOf(signature)).toString('hex'),
    op as HtsOperation,
  ]),
);

/** The call data of `operation` for `account` and `token` (both 20-byte addresses). */
export function htsCallData(operation: HtsOperation, account: Uint8Array, token: Uint8Array): Uint8Array {
  return Uint8Array.from([...selectorOf(SIGNATURES[operation]), ...addressWord(account), ...addressWord(token)]);
}

/** What one system call did, for the transaction's records. */
export interface SystemCallRecord {
  readonly operation: HtsOperation;
  readonly token: bigint;
  readonly status: number;
  readonly input: Uint8Array;
  readonly output: Uint8Array;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
}

export interface SystemContractRun {
  readonly handler: SystemContract;
  readonly calls: SystemCallRecord[];
  /** Applies the successful calls' effects to the ledger (only when the transaction itself succeeded). */
  apply(): void;
}

const addressNum = (data: Uint8Array, index: number) => numOfLongZero(data.subarray(16 + 32 * index, 36 + 32 * index));

/** A system contract for one transaction over `ledger`. */
export function htsSystemContract(ledger: Ledger): SystemContractRun {
  const calls: SystemCallRecord[] = [];
  const effects: (() => void)[] = [];
  const handler: SystemContract = ({ caller, data, gasLimit, isStatic }) => {
    const operation = OPERATIONS.get(Buffer.from(data.subarray(0, 4)).toString('hex'));
    const gas = gasOfTinycents(ASSOCIATION_TINYCENTS);
    if (!operation || isStatic || data.length !== 68 || gas > gasLimit) return haltResult(gasLimit);
    const account = addressNum(data, 0);
    const token = addressNum(data, 1) ?? 0n;
    const key = `${account}/${token}`;
    const status = ((): number => {
      // Only the calling contract's own account is active without a signature the call cannot carry.
      if (account === undefined || account !== callerNum(caller)) return INVALID_SIGNATURE;
      if (!ledger.tokens.has(token)) return INVALID_TOKEN_ID;
      const associated = ledger.tokenBalances.has(key);
      if (operation === 'associateToken') return associated ? TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT : SUCCESS;
      if (!associated) return TOKEN_NOT_ASSOCIATED_TO_ACCOUNT;
      return (ledger.tokenBalances.get(key) ?? 0n) === 0n ? SUCCESS : TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES;
    })();
    if (status === SUCCESS) {
      effects.push(() => {
        if (operation === 'associateToken') ledger.tokenBalances.set(key, 0n);
        else ledger.tokenBalances.delete(key);
      });
    }
    const output = word(BigInt(status));
    calls.push({ operation, token, status, input: data, output, gasLimit, gasUsed: gas });
    return { returnValue: output, executionGasUsed: gas };
  };
  return {
    handler,
    calls,
    apply: () => {
      for (const effect of effects) effect();
    },
  };
}

const callerNum = (caller: Address) => numOfLongZero(caller.bytes);

/**
 * The simulated network's Hedera Token Service system contract (0x167), answered from the ledger model alone: the
 * classic `associateToken`, `dissociateToken`, `transferToken` and `approve` of the calling contract for its own
 * account, with the response code as the consensus node's handlers decide it (TokenAssociateToAccount,
 * TokenDissociateFromAccount, CryptoTransfer, CryptoApproveAllowance) and the gas its SystemContractGasCalculator
 * derives from the dispatch's canonical price (hiero-consensus-node `hedera-smart-contract-service-impl`:
 * `exec/gas/SystemContractGasCalculator.java`, `exec/systemcontracts/hts/transfer/ClassicTransfersCall.java`;
 * `hapi-fees` `canonical-prices.json`). A failed dispatch answers its code, as a classic call does, except an
 * approval, which answers `(code, true)` and reverts with its code when it fails (ClassicGrantApprovalCall).
 * Effects wait in the run until the transaction succeeds (`apply`).
 */
import { EVMError } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { accountPb, i64, numOfLongZero, tokenPb } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { TokenTransfers } from '../network/transfers.ts';
import { addressWord, readUint, word } from './abi.ts';
import { haltResult, type SystemContract } from './hedera-evm.ts';

/** 0.0.359, the system contract's entity number. */
export const HTS_CONTRACT = 0x167n;

const SIGNATURES = {
  associateToken: 'associateToken(address,address)',
  dissociateToken: 'dissociateToken(address,address)',
  transferToken: 'transferToken(address,address,address,int64)',
  approve: 'approve(address,address,uint256)',
} as const;

export type HtsOperation = keyof typeof SIGNATURES;

const SUCCESS = 22;
const INVALID_TOKEN_ID = 167;
const INSUFFICIENT_TOKEN_BALANCE = 178;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194;
const TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES = 195;

/** Canonical prices in tinycents: TokenAssociate, TokenDissociate and CryptoApproveAllowance cost $0.05. */
const ASSOCIATE_TINYCENTS = 500_000_000n;
const APPROVE_TINYCENTS = 500_000_000n;
/** A fungible transfer costs $0.001; a transfer counts half of that per unit adjustment (there are always two). */
const TRANSFER_FUNGIBLE_TINYCENTS = 10_000_000n;
/** The child transaction's gas price: $0.000_000_0852 a gas, in fee schedule units (a thousandth of a tinycent). */
const GAS_PRICE_FEE_SCHEDULE_UNITS = 852_000n;

/** The node's `gasRequirementFromTinycents`, its rounding included: the price as gas, plus a fifth. */
export function gasOfTinycents(tinycents: bigint): bigint {
  const gas = ((tinycents + GAS_PRICE_FEE_SCHEDULE_UNITS - 1n) * 1000n) / GAS_PRICE_FEE_SCHEDULE_UNITS;
  return gas + gas / 5n;
}

const selectorOf = (signature: string) => keccak_256(new TextEncoder().encode(signature)).subarray(0, 4);
const OPERATIONS = new Map(
  Object.entries(SIGNATURES).map(([op, signature]) => [
    Buffer.from(selectorOf(signature)).toString('hex'),
    op as HtsOperation,
  ]),
);

/** The call data of `operation` with its arguments: 20-byte addresses and amounts, in the signature's order. */
export function htsCallData(operation: HtsOperation, args: readonly (Uint8Array | bigint)[]): Uint8Array {
  const words = args.map((arg) => (typeof arg === 'bigint' ? word(arg) : addressWord(arg)));
  return Uint8Array.from([...selectorOf(SIGNATURES[operation]), ...words.flatMap((w) => [...w])]);
}

/** What one system call did, for the transaction's records: the dispatched body and its token transfers. */
export interface SystemCallRecord {
  readonly operation: HtsOperation;
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly tokens: TokenTransfers;
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

interface Dispatch {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly tokens?: TokenTransfers;
  readonly effect?: () => void;
}

const argWord = (data: Uint8Array, index: number) => data.subarray(4 + 32 * index, 36 + 32 * index);
const argNum = (data: Uint8Array, index: number) => numOfLongZero(argWord(data, index).subarray(12)) ?? 0n;

/** The dispatch `operation` makes for `caller`, decided on `ledger` as the node's handler decides it. */
function dispatchOf(ledger: Ledger, operation: HtsOperation, caller: bigint, data: Uint8Array): Dispatch {
  const relation = (account: bigint, token: bigint) => ledger.tokenBalances.get(`${account}/${token}`);
  switch (operation) {
    case 'associateToken':
    case 'dissociateToken': {
      const [account, token] = [argNum(data, 0), argNum(data, 1)];
      const change = { account: accountPb(account), tokens: [tokenPb(token)] };
      const associate = operation === 'associateToken';
      const body = associate ? { tokenAssociate: change } : { tokenDissociate: change };
      const held = relation(account, token);
      const status = !ledger.tokens.has(token)
        ? INVALID_TOKEN_ID
        : associate
          ? held === undefined
            ? SUCCESS
            : TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT
          : held === undefined
            ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
            : held === 0n
              ? SUCCESS
              : TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES;
      const key = `${account}/${token}`;
      return {
        status,
        body,
        effect: associate ? () => ledger.tokenBalances.set(key, 0n) : () => ledger.tokenBalances.delete(key),
      };
    }
    case 'transferToken': {
      const [token, from, to] = [argNum(data, 0), argNum(data, 1), argNum(data, 2)];
      const amount = readUint(argWord(data, 3));
      const tokens = new TokenTransfers().add(token, from, -amount).add(token, to, amount);
      const body = { cryptoTransfer: { tokenTransfers: tokens.toPb() } };
      // The receiver's relationship is settled before any balance moves (AssociateTokenRecipientsStep).
      const status = !ledger.tokens.has(token)
        ? INVALID_TOKEN_ID
        : relation(from, token) === undefined || relation(to, token) === undefined
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : (relation(from, token) ?? 0n) < amount
            ? INSUFFICIENT_TOKEN_BALANCE
            : SUCCESS;
      return {
        status,
        body,
        tokens,
        effect: () => {
          ledger.addTokenBalance(from, token, -amount);
          ledger.addTokenBalance(to, token, amount);
        },
      };
    }
    case 'approve': {
      const [token, spender] = [argNum(data, 0), argNum(data, 1)];
      const amount = readUint(argWord(data, 2));
      const body = {
        cryptoApproveAllowance: {
          tokenAllowances: [
            { tokenId: tokenPb(token), owner: accountPb(caller), spender: accountPb(spender), amount: i64(amount) },
          ],
        },
      };
      const status = !ledger.tokens.has(token)
        ? INVALID_TOKEN_ID
        : relation(caller, token) === undefined
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : SUCCESS;
      const key = `${caller}/${spender}/${token}`;
      return {
        status,
        body,
        effect: () => (amount === 0n ? ledger.tokenAllowances.delete(key) : ledger.tokenAllowances.set(key, amount)),
      };
    }
  }
}

const GAS: Record<HtsOperation, bigint> = {
  associateToken: gasOfTinycents(ASSOCIATE_TINYCENTS),
  dissociateToken: gasOfTinycents(ASSOCIATE_TINYCENTS),
  transferToken: gasOfTinycents(2n * (TRANSFER_FUNGIBLE_TINYCENTS / 2n)),
  approve: gasOfTinycents(APPROVE_TINYCENTS),
};

/**
 * Whose account an operation acts for: the simulator only makes calls in which that is the calling contract's own
 * (the one account a contract call is authorized for without signatures it cannot carry).
 */
const actingAccount = (operation: HtsOperation, data: Uint8Array, caller: bigint) =>
  operation === 'transferToken' ? argNum(data, 1) : operation === 'approve' ? caller : argNum(data, 0);

/** A system contract for one transaction over `ledger`. */
export function htsSystemContract(ledger: Ledger): SystemContractRun {
  const calls: SystemCallRecord[] = [];
  const effects: (() => void)[] = [];
  const handler: SystemContract = ({ caller, data, gasLimit, isStatic }) => {
    const operation = OPERATIONS.get(Buffer.from(data.subarray(0, 4)).toString('hex'));
    if (!operation || isStatic || GAS[operation] > gasLimit) return haltResult(gasLimit);
    const callerNum = numOfLongZero(caller.bytes) ?? 0n;
    if (actingAccount(operation, data, callerNum) !== callerNum) {
      throw new Error(`simulator: ${operation} for an account other than its caller 0.0.${callerNum}`);
    }
    const dispatch = dispatchOf(ledger, operation, callerNum, data);
    if (dispatch.status === SUCCESS && dispatch.effect) effects.push(dispatch.effect);
    const code = word(BigInt(dispatch.status));
    const reverts = operation === 'approve' && dispatch.status !== SUCCESS;
    const output = operation === 'approve' && !reverts ? Uint8Array.from([...code, ...word(1n)]) : code;
    calls.push({
      operation,
      status: dispatch.status,
      body: dispatch.body,
      tokens: dispatch.status === SUCCESS && dispatch.tokens ? dispatch.tokens : new TokenTransfers(),
      input: data,
      output,
      gasLimit,
      gasUsed: GAS[operation],
    });
    return {
      returnValue: output,
      executionGasUsed: GAS[operation],
      ...(reverts ? { exceptionError: new EVMError(EVMError.errorMessages.REVERT) } : {}),
    };
  };
  return {
    handler,
    calls,
    apply: () => {
      for (const effect of effects) effect();
    },
  };
}

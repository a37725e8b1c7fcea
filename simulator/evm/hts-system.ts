/**
 * The simulated network's Hedera Token Service system contract (0x167), answered from the ledger model alone: the
 * classic functions of hts-functions.ts, for the calling contract's own account or a token whose keys name it, with
 * the response code as the consensus node's handlers decide it (TokenAssociateToAccount, TokenDissociateFromAccount,
 * CryptoTransfer, CryptoApproveAllowance, TokenMint, TokenBurn, TokenPause, TokenUnpause, TokenFreezeAccount,
 * TokenUnfreezeAccount, TokenGrantKycToAccount, TokenRevokeKycFromAccount, TokenCreate) and the gas of
 * hts-functions.ts. A token creation (hts-create.ts) short of its fee answers INSUFFICIENT_TX_FEE and the zero
 * address; one that succeeds charges the fee to the calling contract and answers the new token's address. A failed
 * dispatch answers its code, as a classic call does, except an approval, which answers `(code, true)` and reverts
 * with its code when it fails (ClassicGrantApprovalCall). Effects wait in the run until the transaction succeeds
 * (`apply`).
 */
import { EVMError } from '@ethereumjs/evm';
import { accountPb, i64, longZeroAddress, numOfLongZero, tokenPb } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { TokenTransfers } from '../network/transfers.ts';
import { addressWord, readUint, word } from './abi.ts';
import { haltResult, type SystemContract } from './hedera-evm.ts';
import { creationFee, readCreation } from './hts-create.ts';
import { HTS_GAS, type HtsOperation, OPERATIONS } from './hts-functions.ts';

/** 0.0.359, the system contract's entity number. */
export const HTS_CONTRACT = 0x167n;

const INSUFFICIENT_TX_FEE = 9;
const SUCCESS = 22;
const INVALID_TOKEN_ID = 167;
const INSUFFICIENT_TOKEN_BALANCE = 178;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194;
const TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES = 195;
const INVALID_TOKEN_BURN_AMOUNT = 183;
const TOKEN_IS_PAUSED = 265;

/** What one system call did, for the transaction's records: the dispatched body and its token transfers. */
export interface SystemCallRecord {
  readonly operation: HtsOperation;
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly tokens: TokenTransfers;
  /** The child record's receipt fields beyond its status. */
  readonly receipt: Record<string, unknown>;
  /** The child record's fields beyond its receipt, transfers and the system contract's result. */
  readonly record: Record<string, unknown>;
  /** Tinybars the dispatch charged the calling contract (a creation's fee), 0 for none. */
  readonly fee: bigint;
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
  /** The output's words after the response code (a mint's and a burn's new total supply). */
  readonly words?: readonly Uint8Array[];
  /** The child record's receipt fields. */
  readonly receipt?: Record<string, unknown>;
  readonly record?: Record<string, unknown>;
  readonly fee?: bigint;
  readonly effect?: () => void;
}

const argWord = (data: Uint8Array, index: number) => data.subarray(4 + 32 * index, 36 + 32 * index);
const argNum = (data: Uint8Array, index: number) => numOfLongZero(argWord(data, index).subarray(12)) ?? 0n;

/**
 * The account an address argument names. The simulator passes canonical addresses only (an account's EVM address
 * when it has one): the node takes the long-zero address of an account with an EVM address for no account.
 */
function accountArg(ledger: Ledger, data: Uint8Array, index: number): bigint {
  return accountOf(ledger, argWord(data, index).subarray(12));
}

function accountOf(ledger: Ledger, address: Uint8Array): bigint {
  const num = ledger.entityOfAddress(address);
  if (num === undefined || !Buffer.from(ledger.canonicalAddress(num)).equals(address)) {
    throw new Error(`simulator: 0x${Buffer.from(address).toString('hex')} is no account's canonical address`);
  }
  return num;
}

/** The dispatch `operation` makes for `caller`, decided on `ledger` as the node's handler decides it. */
function dispatchOf(
  ledger: Ledger,
  operation: HtsOperation,
  caller: bigint,
  data: Uint8Array,
  value: bigint,
): Dispatch {
  const relation = (account: bigint, token: bigint) => ledger.tokenBalances.get(`${account}/${token}`);
  switch (operation) {
    case 'createFungibleToken':
      return createDispatch(ledger, data, value);
    case 'associateToken':
    case 'dissociateToken': {
      const [account, token] = [accountArg(ledger, data, 0), argNum(data, 1)];
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
      const [token, from, to] = [argNum(data, 0), accountArg(ledger, data, 1), accountArg(ledger, data, 2)];
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
    case 'mintToken':
    case 'burnToken': {
      const token = ledger.tokens.get(argNum(data, 0));
      const amount = readUint(argWord(data, 1));
      if (!token) throw new Error(`simulator: ${operation} of no token`);
      const mint = operation === 'mintToken';
      const body = mint
        ? { tokenMint: { token: tokenPb(token.num), amount: i64(amount) } }
        : { tokenBurn: { token: tokenPb(token.num), amount: i64(amount) } };
      const status = token.paused
        ? TOKEN_IS_PAUSED
        : !mint && (relation(token.treasury, token.num) ?? 0n) < amount
          ? INVALID_TOKEN_BURN_AMOUNT
          : SUCCESS;
      const supply = status === SUCCESS ? token.totalSupply + (mint ? amount : -amount) : 0n;
      // A mint answers its serial numbers too: none for fungible units (an empty int64[] after its offset).
      const words = mint ? [word(supply), word(0x60n), word(0n)] : [word(supply)];
      return {
        status,
        body,
        words,
        receipt: { newTotalSupply: i64(supply) },
        tokens: new TokenTransfers().add(token.num, token.treasury, mint ? amount : -amount),
        effect: () => {
          ledger.addTokenBalance(token.treasury, token.num, mint ? amount : -amount);
          token.totalSupply = supply;
        },
      };
    }
    case 'pauseToken':
    case 'unpauseToken': {
      const token = ledger.tokens.get(argNum(data, 0));
      if (!token) throw new Error(`simulator: ${operation} of no token`);
      const pause = operation === 'pauseToken';
      const change = { token: tokenPb(token.num) };
      return {
        status: SUCCESS,
        body: pause ? { token_pause: change } : { token_unpause: change },
        effect: () => {
          token.paused = pause;
        },
      };
    }
    case 'freezeToken':
    case 'unfreezeToken':
    case 'grantTokenKyc':
    case 'revokeTokenKyc': {
      const token = ledger.tokens.get(argNum(data, 0));
      const account = accountArg(ledger, data, 1);
      if (!token?.frozen || !token.kycGranted) throw new Error(`simulator: ${operation} of no managed token`);
      const change = { token: tokenPb(token.num), account: accountPb(account) };
      const set = operation === 'freezeToken' || operation === 'unfreezeToken' ? token.frozen : token.kycGranted;
      const add = operation === 'freezeToken' || operation === 'grantTokenKyc';
      const body = {
        freezeToken: { tokenFreeze: change },
        unfreezeToken: { tokenUnfreeze: change },
        grantTokenKyc: { tokenGrantKyc: change },
        revokeTokenKyc: { tokenRevokeKyc: change },
      }[operation];
      const status = token.paused
        ? TOKEN_IS_PAUSED
        : relation(account, token.num) === undefined
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : SUCCESS;
      return {
        status,
        body,
        effect: () => {
          if (add) set.add(account);
          else set.delete(account);
        },
      };
    }
    case 'approve': {
      const [token, spender] = [argNum(data, 0), accountArg(ledger, data, 1)];
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

/**
 * A TokenCreate for the treasury the call names (the calling contract): when the value covers the fee, the token
 * takes the next entity number at once (its address is the answer) and its treasury holds the initial supply,
 * associated and neither frozen nor without KYC, as it has no keys. The dispatch's record lists that association.
 */
function createDispatch(ledger: Ledger, data: Uint8Array, value: bigint): Dispatch {
  const creation = readCreation(data);
  const treasury = accountOf(ledger, creation.treasury);
  const body = {
    tokenCreation: {
      name: creation.name,
      symbol: creation.symbol,
      memo: creation.memo,
      decimals: Number(creation.decimals),
      initialSupply: i64(creation.initialSupply),
      treasury: accountPb(treasury),
      autoRenewAccount: accountPb(accountOf(ledger, creation.autoRenewAccount)),
      autoRenewPeriod: { seconds: String(creation.autoRenewPeriod) },
    },
  };
  const fee = creationFee(ledger.exchangeRate);
  if (value < fee) return { status: INSUFFICIENT_TX_FEE, body, words: [word(0n)] };
  const num = ledger.allocateEntity();
  return {
    status: SUCCESS,
    body,
    fee,
    words: [addressWord(longZeroAddress(num))],
    receipt: { tokenID: tokenPb(num) },
    record: { automatic_token_associations: [{ token_id: tokenPb(num), account_id: accountPb(treasury) }] },
    tokens: new TokenTransfers().add(num, treasury, creation.initialSupply),
    effect: () => {
      ledger.tokens.set(num, {
        num,
        type: 'FUNGIBLE_COMMON',
        name: creation.name,
        symbol: creation.symbol,
        decimals: Number(creation.decimals),
        treasury,
        totalSupply: creation.initialSupply,
        nextSerial: 1n,
      });
      ledger.tokenBalances.set(`${treasury}/${num}`, creation.initialSupply);
    },
  };
}

/**
 * Whose key an operation needs: the account it acts for, or for a change of a token's supply, pause, freezes or
 * KYC the token's manager. The
 * simulator only makes calls in which that is the calling contract (its own account, or a key naming its contract
 * id), the one authorization a contract call has without signatures it cannot carry.
 */
function authority(ledger: Ledger, operation: HtsOperation, data: Uint8Array, caller: bigint): bigint | undefined {
  switch (operation) {
    case 'transferToken':
      return accountArg(ledger, data, 1);
    case 'approve':
      return caller;
    case 'associateToken':
    case 'dissociateToken':
      return accountArg(ledger, data, 0);
    case 'createFungibleToken':
      return accountOf(ledger, readCreation(data).treasury);
    default:
      return ledger.tokens.get(argNum(data, 0))?.manager;
  }
}

/** A system contract for one transaction over `ledger`. */
export function htsSystemContract(ledger: Ledger): SystemContractRun {
  const calls: SystemCallRecord[] = [];
  const effects: (() => void)[] = [];
  const handler: SystemContract = ({ caller, data, gasLimit, isStatic, value }) => {
    const operation = OPERATIONS.get(Buffer.from(data.subarray(0, 4)).toString('hex'));
    if (!operation || isStatic || HTS_GAS[operation] > gasLimit) return haltResult(gasLimit);
    const callerNum = numOfLongZero(caller.bytes) ?? 0n;
    if (authority(ledger, operation, data, callerNum) !== callerNum) {
      throw new Error(`simulator: ${operation} for an account other than its caller 0.0.${callerNum}`);
    }
    const dispatch = dispatchOf(ledger, operation, callerNum, data, value);
    if (dispatch.status === SUCCESS && dispatch.effect) effects.push(dispatch.effect);
    const code = word(BigInt(dispatch.status));
    const reverts = operation === 'approve' && dispatch.status !== SUCCESS;
    const words = operation === 'approve' && !reverts ? [word(1n)] : (dispatch.words ?? []);
    const output = Uint8Array.from([code, ...words].flatMap((w) => [...w]));
    calls.push({
      operation,
      status: dispatch.status,
      body: dispatch.body,
      tokens: dispatch.status === SUCCESS && dispatch.tokens ? dispatch.tokens : new TokenTransfers(),
      receipt: dispatch.status === SUCCESS ? (dispatch.receipt ?? {}) : {},
      record: dispatch.status === SUCCESS ? (dispatch.record ?? {}) : {},
      fee: dispatch.fee ?? 0n,
      input: data,
      output,
      gasLimit,
      gasUsed: HTS_GAS[operation],
    });
    return {
      returnValue: output,
      executionGasUsed: HTS_GAS[operation],
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

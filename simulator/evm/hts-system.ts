/**
 * The simulated network's Hedera Token Service system contract (0x167), answered from the ledger model alone: the
 * classic functions of hts-functions.ts, for the calling contract's own account or a token whose keys name it, with
 * the response code as the consensus node's handlers decide it (TokenAssociateToAccount, TokenDissociateFromAccount,
 * CryptoTransfer of hbar, units or NFTs, CryptoApproveAllowance, TokenMint, TokenBurn and TokenWipeAccount of units or NFTs,
 * TokenPause, TokenUnpause, TokenFreezeAccount, TokenUnfreezeAccount, TokenGrantKycToAccount,
 * TokenRevokeKycFromAccount, TokenCreate of a fungible token or an NFT collection) and the gas of hts-functions.ts. A
 * token creation (hts-create.ts) short of
 * its fee answers INSUFFICIENT_TX_FEE and the zero address; one that succeeds charges the fee to the calling contract
 * and answers the new token's address. A failed dispatch answers its code, as a classic call does, except an approval,
 * which answers `(code, true)` and reverts with its code when it fails (ClassicGrantApprovalCall). Who may act is
 * hts-authority.ts's rule; a call for an account or token the contract has no key for answers the node's code. A few
 * views answer too (hts-views.ts).
 */
import { EVMError } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { accountPb, i64, numOfLongZero, tokenPb } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { readUint, word } from './abi.ts';
import { haltResult, type SystemContract, type SystemContractHooks } from './hedera-evm.ts';
import { allowanceSpends } from './hts-allowances.ts';
import {
  accountArg,
  argNum,
  argWord,
  arrayArg,
  CallFailure,
  cryptoTransferArg,
  INVALID_TOKEN_ID,
  nftMovesArg,
  unitAdjustmentsArg,
} from './hts-arguments.ts';
import { authorityFailure, liveToken } from './hts-authority.ts';
import {
  ACCOUNT_DOES_NOT_OWN_WIPED_NFT,
  ACCOUNT_IS_TREASURY,
  ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN,
  type Dispatch,
  INSUFFICIENT_ACCOUNT_BALANCE,
  INSUFFICIENT_TOKEN_BALANCE,
  INVALID_TOKEN_BURN_AMOUNT,
  INVALID_WIPING_AMOUNT,
  SENDER_DOES_NOT_OWN_NFT_SERIAL_NO,
  SUCCESS,
  standing,
  TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT,
  TOKEN_HAS_NO_FREEZE_KEY,
  TOKEN_HAS_NO_KYC_KEY,
  TOKEN_IS_PAUSED,
  TOKEN_NOT_ASSOCIATED_TO_ACCOUNT,
  TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES,
  type Undo,
} from './hts-dispatch.ts';
import {
  cryptoTransferGas,
  HTS_GAS,
  type HtsOperation,
  MINT_NFT_GAS,
  nftTransferGas,
  OPERATIONS,
  unitTransferGas,
} from './hts-functions.ts';
import { erc20Call } from './hts-redirect.ts';
import { createDispatch, nftSupplyDispatch } from './hts-token-dispatches.ts';
import { viewResult } from './hts-views.ts';

/** 0.0.359, the system contract's entity number. */
export const HTS_CONTRACT = 0x167n;

/** What one system call did, for the transaction's records: the dispatched body and its token transfers. */
export interface SystemCallRecord {
  readonly operation: HtsOperation;
  /** The calling contract, for whose account the call acts. */
  readonly caller: bigint;
  /** The call's depth in the transaction's call tree. */
  readonly depth: number;
  /** A frame around the call reverted: its effects were undone. */
  reverted: boolean;
  readonly status: number;
  /** The dispatched transaction's body; undefined when the call failed before anything was dispatched. */
  readonly body: Record<string, unknown> | undefined;
  readonly tokens: TokenTransfers;
  /** The hbar the dispatch moved, for the child record's transfer list (the network applies it with that record). */
  readonly hbar: HbarTransfers;
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

export interface SystemContractRun extends SystemContractHooks {
  readonly calls: SystemCallRecord[];
  /** Undoes every call's effects (a ContractCallLocal, which changes nothing). */
  revert(): void;
}

/** The gas of a call: its function's, or for NFTs a mint's own price and a transfer's price per serial. */
function gasOf(ledger: Ledger, operation: HtsOperation, data: Uint8Array): bigint {
  switch (operation) {
    case 'mintToken':
      return ledger.tokens.get(argNum(data, 0))?.type === 'NON_FUNGIBLE_UNIQUE' ? MINT_NFT_GAS : HTS_GAS.mintToken;
    case 'transferNFTs':
      return nftTransferGas(arrayArg(data, 3).length);
    case 'transferTokens':
      return unitTransferGas(arrayArg(data, 2).length);
    case 'cryptoTransferV2': {
      const { hbar, tokens } = cryptoTransferArg(ledger, data);
      return cryptoTransferGas(
        hbar.length,
        tokens.reduce((count, list) => count + list.adjustments.length, 0),
      );
    }
    default:
      return HTS_GAS[operation];
  }
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
    case 'createNonFungibleToken':
      return createDispatch(ledger, operation, data, value);
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
            : ledger.tokens.get(token)?.treasury === account
              ? ACCOUNT_IS_TREASURY
              : held === 0n
                ? SUCCESS
                : TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES;
      const key = `${account}/${token}`;
      return {
        status,
        body,
        effect: associate
          ? () => {
              ledger.tokenBalances.set(key, 0n);
              return () => ledger.tokenBalances.delete(key);
            }
          : () => {
              ledger.tokenBalances.delete(key);
              return () => ledger.tokenBalances.set(key, 0n);
            },
      };
    }
    case 'transferToken':
    case 'transferFrom': {
      const [token, from, to] = [argNum(data, 0), accountArg(ledger, data, 1), accountArg(ledger, data, 2)];
      const amount = readUint(argWord(data, 3));
      const allowances = allowanceSpends(ledger, caller, [{ token, account: from, amount: -amount }]);
      const tokens = new TokenTransfers()
        .add(token, from, -amount, allowances.approved(token, from))
        .add(token, to, amount);
      const body = { cryptoTransfer: { tokenTransfers: tokens.toPb() } };
      // The receiver's relationship is settled before any balance moves (AssociateTokenRecipientsStep).
      const status =
        standing(ledger, [
          { token, account: from },
          { token, account: to },
        ]) ??
        allowances.status ??
        ((relation(from, token) ?? 0n) < amount ? INSUFFICIENT_TOKEN_BALANCE : SUCCESS);
      return {
        status,
        body,
        tokens,
        effect: () => {
          ledger.addTokenBalance(from, token, -amount);
          ledger.addTokenBalance(to, token, amount);
          const unspend = allowances.spend();
          return () => {
            unspend();
            ledger.addTokenBalance(to, token, -amount);
            ledger.addTokenBalance(from, token, amount);
          };
        },
      };
    }
    case 'transferTokens': {
      const token = argNum(data, 0);
      const adjustments = unitAdjustmentsArg(ledger, data);
      const allowances = allowanceSpends(
        ledger,
        caller,
        adjustments.map((a) => ({ token, ...a })),
      );
      const tokens = new TokenTransfers();
      for (const { account, amount } of adjustments) {
        tokens.add(token, account, amount, amount < 0n && allowances.approved(token, account));
      }
      const status =
        standing(
          ledger,
          adjustments.map(({ account }) => ({ token, account })),
        ) ??
        allowances.status ??
        (adjustments.some(({ account, amount }) => (relation(account, token) ?? 0n) + amount < 0n)
          ? INSUFFICIENT_TOKEN_BALANCE
          : SUCCESS);
      return {
        status,
        body: { cryptoTransfer: { tokenTransfers: tokens.toPb() } },
        tokens,
        effect: () => {
          for (const { account, amount } of adjustments) ledger.addTokenBalance(account, token, amount);
          const unspend = allowances.spend();
          return () => {
            unspend();
            for (const { account, amount } of [...adjustments].reverse())
              ledger.addTokenBalance(account, token, -amount);
          };
        },
      };
    }
    case 'cryptoTransferV2': {
      const { hbar: adjustments, tokens: lists } = cryptoTransferArg(ledger, data);
      const hbar = new HbarTransfers();
      for (const { account, amount } of adjustments) hbar.add(account, amount);
      const units = lists.flatMap(({ token, adjustments: list }) => list.map((a) => ({ token, ...a })));
      const allowances = allowanceSpends(ledger, caller, units);
      const tokens = new TokenTransfers();
      for (const { token, account, amount } of units) {
        tokens.add(token, account, amount, amount < 0n && allowances.approved(token, account));
      }
      const balance = (account: bigint) => (ledger.accounts.get(account) ?? ledger.contracts.get(account))?.balance;
      // CryptoTransferHandler's order: recipients' associations, then hbar, then units (allowances, balances).
      const status =
        (lists.some(({ token }) => !ledger.tokens.has(token)) ? INVALID_TOKEN_ID : standing(ledger, units)) ??
        (adjustments.some(({ account, amount }) => (balance(account) ?? 0n) + amount < 0n)
          ? INSUFFICIENT_ACCOUNT_BALANCE
          : (allowances.status ??
            (units.some(({ token, account, amount }) => (relation(account, token) ?? 0n) + amount < 0n)
              ? INSUFFICIENT_TOKEN_BALANCE
              : SUCCESS)));
      return {
        status,
        body: { cryptoTransfer: { transfers: { accountAmounts: hbar.toPb() }, tokenTransfers: tokens.toPb() } },
        tokens,
        hbar,
        effect: () => {
          for (const { token, account, amount } of units) ledger.addTokenBalance(account, token, amount);
          const unspend = allowances.spend();
          return () => {
            unspend();
            for (const { token, account, amount } of [...units].reverse())
              ledger.addTokenBalance(account, token, -amount);
          };
        },
      };
    }
    case 'transferNFT':
    case 'transferNFTs': {
      const { token, moves } = nftMovesArg(ledger, operation, data);
      const tokens = new TokenTransfers();
      for (const move of moves) tokens.nft(token, move);
      const owns = (move: { from: bigint; serial: bigint }) => {
        const nft = ledger.nft(token, move.serial);
        return nft !== undefined && !nft.deleted && nft.owner === move.from;
      };
      const parties = moves.flatMap((move) => [
        { token, account: move.from },
        { token, account: move.to },
      ]);
      const status = standing(ledger, parties) ?? (moves.every(owns) ? SUCCESS : SENDER_DOES_NOT_OWN_NFT_SERIAL_NO);
      return {
        status,
        body: { cryptoTransfer: { tokenTransfers: tokens.toPb() } },
        tokens,
        effect: () => {
          const spenders = moves.map((move) => ledger.nft(token, move.serial)?.spender ?? 0n);
          for (const move of moves) ledger.moveNft(token, move.serial, move.from, move.to);
          return () => {
            for (const move of [...moves].reverse()) ledger.moveNft(token, move.serial, move.to, move.from);
            moves.forEach((move, i) => {
              const nft = ledger.nft(token, move.serial);
              if (nft) nft.spender = spenders[i] ?? 0n;
            });
          };
        },
      };
    }
    case 'mintToken':
    case 'burnToken': {
      const token = liveToken(ledger, argNum(data, 0));
      const amount = readUint(argWord(data, 1));
      if (token.type === 'NON_FUNGIBLE_UNIQUE') return nftSupplyDispatch(ledger, operation, token, data);
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
          const before = token.totalSupply;
          ledger.addTokenBalance(token.treasury, token.num, mint ? amount : -amount);
          token.totalSupply = supply;
          return () => {
            ledger.addTokenBalance(token.treasury, token.num, mint ? -amount : amount);
            token.totalSupply = before;
          };
        },
      };
    }
    case 'wipeTokenAccount':
    case 'wipeTokenAccountNFT': {
      const token = liveToken(ledger, argNum(data, 0));
      const account = accountArg(ledger, data, 1);
      const nft = operation === 'wipeTokenAccountNFT';
      const serials = nft ? arrayArg(data, 2).map(readUint) : [];
      const amount = nft ? BigInt(serials.length) : readUint(argWord(data, 2));
      const tokens = new TokenTransfers();
      if (nft) for (const serial of serials) tokens.nft(token.num, { serial, from: account, to: 0n });
      else tokens.add(token.num, account, -amount);
      const supply = token.totalSupply - amount;
      const owned = serials.every((serial) => {
        const held = ledger.nft(token.num, serial);
        return held !== undefined && !held.deleted && held.owner === account;
      });
      const status = token.paused
        ? TOKEN_IS_PAUSED
        : relation(account, token.num) === undefined
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : token.kycGranted && !token.kycGranted.has(account)
            ? ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN
            : nft
              ? owned
                ? SUCCESS
                : ACCOUNT_DOES_NOT_OWN_WIPED_NFT
              : (relation(account, token.num) ?? 0n) < amount
                ? INVALID_WIPING_AMOUNT
                : SUCCESS;
      return {
        status,
        body: {
          tokenWipe: {
            token: tokenPb(token.num),
            account: accountPb(account),
            ...(nft ? { serialNumbers: serials.map(i64) } : { amount: i64(amount) }),
          },
        },
        receipt: { newTotalSupply: i64(supply) },
        tokens,
        effect: () => {
          const before = token.totalSupply;
          if (nft) for (const serial of serials) ledger.burnNft(token, serial, account);
          else {
            ledger.addTokenBalance(account, token.num, -amount);
            token.totalSupply = supply;
          }
          return () => {
            if (nft) for (const serial of [...serials].reverse()) ledger.restoreNft(token, serial, account);
            else {
              ledger.addTokenBalance(account, token.num, amount);
              token.totalSupply = before;
            }
          };
        },
      };
    }
    case 'deleteToken': {
      const token = liveToken(ledger, argNum(data, 0));
      return {
        status: token.paused ? TOKEN_IS_PAUSED : SUCCESS,
        body: { tokenDeletion: { token: tokenPb(token.num) } },
        effect: () => {
          token.deleted = true;
          return () => {
            token.deleted = false;
          };
        },
      };
    }
    case 'pauseToken':
    case 'unpauseToken': {
      const token = liveToken(ledger, argNum(data, 0));
      const pause = operation === 'pauseToken';
      const change = { token: tokenPb(token.num) };
      return {
        status: SUCCESS,
        body: pause ? { token_pause: change } : { token_unpause: change },
        effect: () => {
          const before = token.paused;
          token.paused = pause;
          return () => {
            token.paused = before;
          };
        },
      };
    }
    case 'freezeToken':
    case 'unfreezeToken':
    case 'grantTokenKyc':
    case 'revokeTokenKyc': {
      const token = liveToken(ledger, argNum(data, 0));
      const account = accountArg(ledger, data, 1);
      const change = { token: tokenPb(token.num), account: accountPb(account) };
      const freezing = operation === 'freezeToken' || operation === 'unfreezeToken';
      const set = freezing ? token.frozen : token.kycGranted;
      if (!set) throw new CallFailure(freezing ? TOKEN_HAS_NO_FREEZE_KEY : TOKEN_HAS_NO_KYC_KEY, `0.0.${token.num}`);
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
          const had = set.has(account);
          if (add) set.add(account);
          else set.delete(account);
          return () => {
            if (had) set.add(account);
            else set.delete(account);
          };
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
        effect: () => {
          const before = ledger.tokenAllowances.get(key);
          if (amount === 0n) ledger.tokenAllowances.delete(key);
          else ledger.tokenAllowances.set(key, amount);
          return () =>
            before === undefined ? ledger.tokenAllowances.delete(key) : ledger.tokenAllowances.set(key, before);
        },
      };
    }
  }
}

/** The call's gas and its dispatch, or the code that stops it before any dispatch. */
function decide(ledger: Ledger, operation: HtsOperation, caller: bigint, data: Uint8Array, value: bigint) {
  try {
    const dispatch = dispatchOf(ledger, operation, caller, data, value);
    const denied = dispatch.status === INVALID_TOKEN_ID ? undefined : authorityFailure(ledger, operation, data, caller);
    return denied === undefined ? dispatch : { status: denied, body: dispatch.body };
  } catch (error) {
    if (error instanceof CallFailure) return { status: error.status, body: undefined };
    throw error;
  }
}

/**
 * The system contract for one transaction over `ledger`, for whichever contract calls it. A successful dispatch
 * changes the ledger at once, so a later call in the transaction sees it; a frame that reverts undoes the dispatches
 * made within it (they stay in `calls`, marked reverted), and so does the transaction's own failure, its top frame's.
 * Input it cannot read halts the call, as the node halts on input its decoders refuse.
 */
export function htsSystemContract(ledger: Ledger): SystemContractRun {
  const calls: SystemCallRecord[] = [];
  /** Undo of each applied call, by index in `calls`. */
  const undos = new Map<number, Undo>();
  /** Per open frame, how many calls there were when it started. */
  const frames: number[] = [];
  const undoFrom = (first: number) => {
    for (let i = calls.length - 1; i >= first; i--) {
      const call = calls[i];
      if (call) call.reverted = true;
      undos.get(i)?.();
      undos.delete(i);
    }
  };
  /**
   * Runs `operation` for `caller` with HTS call `data` and records it (`input`: the call data the contract sent);
   * undefined when the call halts.
   */
  const dispatchCall = (
    operation: HtsOperation,
    caller: bigint,
    call: { data: Uint8Array; input: Uint8Array; depth: number; gasLimit: bigint; value: bigint },
  ) => {
    const { data, gasLimit } = call;
    let gas: bigint;
    let dispatch: ReturnType<typeof decide>;
    try {
      gas = gasOf(ledger, operation, data);
      if (gas > gasLimit) return undefined;
      dispatch = decide(ledger, operation, caller, data, call.value);
    } catch {
      return undefined;
    }
    const ok = dispatch.status === SUCCESS && 'effect' in dispatch;
    const code = word(BigInt(dispatch.status));
    const reverts = operation === 'approve' && dispatch.status !== SUCCESS;
    const words = operation === 'approve' && !reverts ? [word(1n)] : 'words' in dispatch ? (dispatch.words ?? []) : [];
    const output = Uint8Array.from([code, ...words].flatMap((w) => [...w]));
    const succeeded = (dispatch.status === SUCCESS ? dispatch : {}) as Partial<Dispatch>;
    if (ok && succeeded.effect) undos.set(calls.length, succeeded.effect());
    const record: SystemCallRecord = {
      operation,
      caller,
      depth: call.depth,
      reverted: false,
      status: dispatch.status,
      body: dispatch.body,
      tokens: succeeded.tokens ?? new TokenTransfers(),
      hbar: succeeded.hbar ?? new HbarTransfers(),
      receipt: succeeded.receipt ?? {},
      record: succeeded.record ?? {},
      fee: 'fee' in dispatch ? (dispatch.fee ?? 0n) : 0n,
      input: call.input,
      output,
      gasLimit,
      gasUsed: gas,
    };
    calls.push(record);
    return { record, reverts };
  };
  const callerOf = (caller: Address) => numOfLongZero(caller.bytes) ?? ledger.entityOfAddress(caller.bytes);
  const handler: SystemContract = ({ caller, data, depth, gasLimit, isStatic, value }) => {
    const selector = Buffer.from(data.subarray(0, 4)).toString('hex');
    const view = viewResult(ledger, selector, data, gasLimit, isStatic);
    if (view) return view;
    const operation = OPERATIONS.get(selector);
    const callerNum = callerOf(caller);
    if (!operation || isStatic || callerNum === undefined) return haltResult(gasLimit);
    const done = dispatchCall(operation, callerNum, { data, input: data, depth, gasLimit, value });
    if (!done) return haltResult(gasLimit);
    return {
      returnValue: done.record.output,
      executionGasUsed: done.record.gasUsed,
      ...(done.reverts ? { exceptionError: new EVMError(EVMError.errorMessages.REVERT) } : {}),
    };
  };
  const tokenProxy = (address: Address): SystemContract | undefined => {
    const token = ledger.tokens.get(numOfLongZero(address.bytes) ?? 0n);
    if (token?.type !== 'FUNGIBLE_COMMON') return undefined;
    return (call) => {
      const callerNum = callerOf(call.caller);
      const erc = callerNum === undefined ? undefined : erc20Call(ledger, token, callerNum, call);
      if (!erc || callerNum === undefined) return haltResult(call.gasLimit);
      if ('result' in erc) return erc.result;
      if (call.isStatic) return haltResult(call.gasLimit);
      const done = dispatchCall(erc.operation, callerNum, { ...call, data: erc.data, input: call.data });
      if (!done) return haltResult(call.gasLimit);
      return erc.answer(done.record.status, done.record.gasUsed);
    };
  };
  return {
    handler,
    tokenProxy,
    calls,
    enterFrame: () => {
      frames.push(calls.length);
    },
    leaveFrame: (reverted) => {
      const first = frames.pop() ?? 0;
      if (reverted) undoFrom(first);
    },
    revert: () => undoFrom(0),
  };
}

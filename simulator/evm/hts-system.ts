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
 * which answers `(code, true)` and reverts with its code when it fails (ClassicGrantApprovalCall). Effects wait in the
 * run until the transaction succeeds (`apply`).
 */
import { EVMError } from '@ethereumjs/evm';
import { accountPb, contractPb, i64, longZeroAddress, numOfLongZero, tokenPb } from '../ledger/ids.ts';
import type { Ledger, Token } from '../ledger/ledger.ts';
import { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { addressWord, readUint, word } from './abi.ts';
import { haltResult, type SystemContract } from './hedera-evm.ts';
import { creationFee, KEY_FIELDS, readCreation, SUPPLY_KEY_TYPE } from './hts-create.ts';
import {
  cryptoTransferGas,
  HTS_GAS,
  type HtsOperation,
  MINT_NFT_GAS,
  nftTransferGas,
  OPERATIONS,
  unitTransferGas,
} from './hts-functions.ts';

/** 0.0.359, the system contract's entity number. */
export const HTS_CONTRACT = 0x167n;

const INSUFFICIENT_TX_FEE = 9;
const INSUFFICIENT_ACCOUNT_BALANCE = 28;
const SUCCESS = 22;
const INVALID_TOKEN_ID = 167;
const INSUFFICIENT_TOKEN_BALANCE = 178;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194;
const TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES = 195;
const ACCOUNT_IS_TREASURY = 196;
const INVALID_TOKEN_BURN_AMOUNT = 183;
const TOKEN_IS_PAUSED = 265;
const SENDER_DOES_NOT_OWN_NFT_SERIAL_NO = 237;
const INVALID_WIPING_AMOUNT = 192;
const ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN = 176;
const ACCOUNT_DOES_NOT_OWN_WIPED_NFT = 253;

/** What one system call did, for the transaction's records: the dispatched body and its token transfers. */
export interface SystemCallRecord {
  readonly operation: HtsOperation;
  readonly status: number;
  readonly body: Record<string, unknown>;
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
  readonly hbar?: HbarTransfers;
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

/** The words of the dynamic array argument at `index`. */
function arrayArg(data: Uint8Array, index: number): Uint8Array[] {
  const args = data.subarray(4);
  const at = Number(readUint(argWord(data, index)));
  const length = Number(readUint(args.subarray(at, at + 32)));
  return Array.from({ length }, (_, i) => args.subarray(at + 32 + 32 * i, at + 64 + 32 * i));
}

/** The items of the `bytes[]` argument at `index` (each item's offset counts from the first offset word). */
function bytesListArg(data: Uint8Array, index: number): Uint8Array[] {
  const args = data.subarray(4);
  const base = Number(readUint(argWord(data, index))) + 32;
  return arrayArg(data, index).map((offset) => {
    const at = base + Number(readUint(offset));
    return args.slice(at + 32, at + 32 + Number(readUint(args.subarray(at, at + 32))));
  });
}

/** The balance changes of a transferTokens call: its accounts and its (signed) amounts, pairwise. */
function unitAdjustmentsArg(ledger: Ledger, data: Uint8Array) {
  const amounts = arrayArg(data, 2);
  return arrayArg(data, 1).map((account, i) => ({
    account: accountOf(ledger, account.subarray(12)),
    amount: BigInt.asIntN(64, readUint(amounts[i] ?? new Uint8Array(32))),
  }));
}

/** The NFT moves of a transferNFT or transferNFTs call: token, then sender, receiver and serial of each. */
function nftMovesArg(ledger: Ledger, operation: HtsOperation, data: Uint8Array) {
  const token = argNum(data, 0);
  if (operation === 'transferNFT') {
    const move = {
      from: accountArg(ledger, data, 1),
      to: accountArg(ledger, data, 2),
      serial: readUint(argWord(data, 3)),
    };
    return { token, moves: [move] };
  }
  const [senders, receivers, serials] = [1, 2, 3].map((index) => arrayArg(data, index));
  const moves = (serials ?? []).map((serial, i) => ({
    from: accountOf(ledger, senders?.[i]?.subarray(12) ?? new Uint8Array(20)),
    to: accountOf(ledger, receivers?.[i]?.subarray(12) ?? new Uint8Array(20)),
    serial: readUint(serial),
  }));
  return { token, moves };
}

/** The hbar and unit adjustments of a `cryptoTransfer` (v2) call; the simulator makes no NFT exchanges in one. */
function cryptoTransferArg(ledger: Ledger, data: Uint8Array) {
  const args = data.subarray(4);
  const wordAt = (at: number) => args.subarray(at, at + 32);
  const offsetAt = (at: number) => Number(readUint(wordAt(at)));
  // An AccountAmount[] at `at`: its length, then (address, int64 amount, bool isApproval) per item.
  const adjustmentsAt = (at: number) =>
    Array.from({ length: offsetAt(at) }, (_, i) => ({
      account: accountOf(ledger, wordAt(at + 32 + 96 * i).subarray(12)),
      amount: BigInt.asIntN(64, readUint(wordAt(at + 64 + 96 * i))),
    }));
  const transferList = offsetAt(0);
  const hbar = adjustmentsAt(transferList + offsetAt(transferList));
  const lists = offsetAt(32);
  const tokens = Array.from({ length: offsetAt(lists) }, (_, i) => {
    const list = lists + 32 + offsetAt(lists + 32 + 32 * i);
    return {
      token: numOfLongZero(wordAt(list).subarray(12)) ?? 0n,
      adjustments: adjustmentsAt(list + offsetAt(list + 32)),
    };
  });
  return { hbar, tokens };
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
    case 'transferTokens': {
      const token = argNum(data, 0);
      const adjustments = unitAdjustmentsArg(ledger, data);
      const tokens = new TokenTransfers();
      for (const { account, amount } of adjustments) tokens.add(token, account, amount);
      const status = !ledger.tokens.has(token)
        ? INVALID_TOKEN_ID
        : adjustments.some(({ account }) => relation(account, token) === undefined)
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : adjustments.some(({ account, amount }) => (relation(account, token) ?? 0n) + amount < 0n)
            ? INSUFFICIENT_TOKEN_BALANCE
            : SUCCESS;
      return {
        status,
        body: { cryptoTransfer: { tokenTransfers: tokens.toPb() } },
        tokens,
        effect: () => {
          for (const { account, amount } of adjustments) ledger.addTokenBalance(account, token, amount);
        },
      };
    }
    case 'cryptoTransferV2': {
      const { hbar: adjustments, tokens: lists } = cryptoTransferArg(ledger, data);
      const hbar = new HbarTransfers();
      for (const { account, amount } of adjustments) hbar.add(account, amount);
      const tokens = new TokenTransfers();
      for (const { token, adjustments: units } of lists) {
        for (const { account, amount } of units) tokens.add(token, account, amount);
      }
      const balance = (account: bigint) => (ledger.accounts.get(account) ?? ledger.contracts.get(account))?.balance;
      const units = lists.flatMap(({ token, adjustments: list }) => list.map((a) => ({ token, ...a })));
      // CryptoTransferHandler's order: recipients' associations, then hbar, then units.
      const status = lists.some(({ token }) => !ledger.tokens.has(token))
        ? INVALID_TOKEN_ID
        : units.some(({ token, account }) => relation(account, token) === undefined)
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : adjustments.some(({ account, amount }) => (balance(account) ?? 0n) + amount < 0n)
            ? INSUFFICIENT_ACCOUNT_BALANCE
            : units.some(({ token, account, amount }) => (relation(account, token) ?? 0n) + amount < 0n)
              ? INSUFFICIENT_TOKEN_BALANCE
              : SUCCESS;
      return {
        status,
        body: { cryptoTransfer: { transfers: { accountAmounts: hbar.toPb() }, tokenTransfers: tokens.toPb() } },
        tokens,
        hbar,
        effect: () => {
          for (const { token, account, amount } of units) ledger.addTokenBalance(account, token, amount);
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
      const status = !ledger.tokens.has(token)
        ? INVALID_TOKEN_ID
        : moves.some((move) => relation(move.from, token) === undefined || relation(move.to, token) === undefined)
          ? TOKEN_NOT_ASSOCIATED_TO_ACCOUNT
          : moves.every(owns)
            ? SUCCESS
            : SENDER_DOES_NOT_OWN_NFT_SERIAL_NO;
      return {
        status,
        body: { cryptoTransfer: { tokenTransfers: tokens.toPb() } },
        tokens,
        effect: () => {
          for (const move of moves) ledger.moveNft(token, move.serial, move.from, move.to);
        },
      };
    }
    case 'mintToken':
    case 'burnToken': {
      const token = ledger.tokens.get(argNum(data, 0));
      const amount = readUint(argWord(data, 1));
      if (!token) throw new Error(`simulator: ${operation} of no token`);
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
          ledger.addTokenBalance(token.treasury, token.num, mint ? amount : -amount);
          token.totalSupply = supply;
        },
      };
    }
    case 'wipeTokenAccount':
    case 'wipeTokenAccountNFT': {
      const token = ledger.tokens.get(argNum(data, 0));
      const account = accountArg(ledger, data, 1);
      if (!token) throw new Error(`simulator: ${operation} of no token`);
      const nft = operation === 'wipeTokenAccountNFT';
      const serials = nft ? arrayArg(data, 2).map(readUint) : [];
      const amount = nft ? BigInt(serials.length) : readUint(argWord(data, 2));
      const tokens = new TokenTransfers();
      if (nft) for (const serial of serials) tokens.nft(token.num, { serial, from: account, to: 0n });
      else tokens.add(token.num, account, -amount);
      const supply = token.totalSupply - amount;
      const owned = serials.every((serial) => ledger.nft(token.num, serial)?.owner === account);
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
          if (nft) for (const serial of serials) ledger.burnNft(token, serial, account);
          else {
            ledger.addTokenBalance(account, token.num, -amount);
            token.totalSupply = supply;
          }
        },
      };
    }
    case 'deleteToken': {
      const token = ledger.tokens.get(argNum(data, 0));
      if (!token) throw new Error(`simulator: ${operation} of no token`);
      return {
        status: token.paused ? TOKEN_IS_PAUSED : SUCCESS,
        body: { tokenDeletion: { token: tokenPb(token.num) } },
        effect: () => {
          token.deleted = true;
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
 * A mint of NFTs (one serial for each metadata, the next serials of the token, owned by its treasury) or a burn of
 * serials the treasury owns, as TokenMint and TokenBurn decide them for a token that is not paused. A mint answers the
 * new total supply and its serials, a burn the new total supply; the child record moves the serials from or to 0.0.0
 * and its receipt carries the new total supply (and a mint's serial numbers).
 */
function nftSupplyDispatch(ledger: Ledger, operation: 'mintToken' | 'burnToken', token: Token, data: Uint8Array) {
  const address = tokenPb(token.num);
  const tokens = new TokenTransfers();
  if (operation === 'mintToken') {
    const metadata = bytesListArg(data, 2);
    const serials = metadata.map((_, i) => token.nextSerial + BigInt(i));
    for (const serial of serials) tokens.nft(token.num, { serial, from: 0n, to: token.treasury });
    const ok = !token.paused;
    const supply = ok ? token.totalSupply + BigInt(serials.length) : 0n;
    return {
      status: ok ? SUCCESS : TOKEN_IS_PAUSED,
      body: { tokenMint: { token: address, metadata } },
      words: [word(supply), word(0x60n), word(ok ? BigInt(serials.length) : 0n), ...(ok ? serials.map(word) : [])],
      receipt: { newTotalSupply: i64(supply), serialNumbers: serials.map(i64) },
      tokens,
      effect: () => {
        for (const meta of metadata) ledger.mintNft(token, meta);
      },
    } satisfies Dispatch;
  }
  const serials = arrayArg(data, 2).map(readUint);
  for (const serial of serials) tokens.nft(token.num, { serial, from: token.treasury, to: 0n });
  const ok = !token.paused;
  const supply = ok ? token.totalSupply - BigInt(serials.length) : 0n;
  return {
    status: ok ? SUCCESS : TOKEN_IS_PAUSED,
    body: { tokenBurn: { token: address, serialNumbers: serials.map(i64) } },
    words: [word(supply)],
    receipt: { newTotalSupply: i64(supply) },
    tokens,
    effect: () => {
      for (const serial of serials) ledger.burnNft(token, serial);
    },
  } satisfies Dispatch;
}

/**
 * A TokenCreate for the treasury the call names (the calling contract): when the value covers the fee, the token
 * takes the next entity number at once (its address is the answer) and its treasury holds the initial supply (none
 * for an NFT collection), associated. The simulator's creations have no freeze or KYC key, so the relationship is
 * neither frozen nor without KYC; an NFT collection's supply key names the contract, which then mints and burns it.
 * The dispatch's record lists the treasury's association.
 */
function createDispatch(
  ledger: Ledger,
  operation: 'createFungibleToken' | 'createNonFungibleToken',
  data: Uint8Array,
  value: bigint,
): Dispatch {
  const type = operation === 'createFungibleToken' ? 'FUNGIBLE_COMMON' : 'NON_FUNGIBLE_UNIQUE';
  const creation = readCreation(data, type);
  const treasury = accountOf(ledger, creation.treasury);
  const keys: Record<string, unknown> = {};
  for (const { keyType, contract } of creation.keys) {
    const key = { contractID: contractPb(numOfLongZero(contract) ?? 0n) };
    KEY_FIELDS.forEach((field, bit) => {
      if (keyType & (1n << BigInt(bit))) keys[field] = key;
    });
  }
  const supplier = creation.keys.find((key) => key.keyType & SUPPLY_KEY_TYPE);
  const body = {
    tokenCreation: {
      name: creation.name,
      symbol: creation.symbol,
      memo: creation.memo,
      ...(type === 'FUNGIBLE_COMMON'
        ? { decimals: Number(creation.decimals), initialSupply: i64(creation.initialSupply) }
        : { tokenType: 1 }),
      treasury: accountPb(treasury),
      ...keys,
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
    tokens:
      creation.initialSupply > 0n
        ? new TokenTransfers().add(num, treasury, creation.initialSupply)
        : new TokenTransfers(),
    effect: () => {
      ledger.tokens.set(num, {
        num,
        type,
        name: creation.name,
        symbol: creation.symbol,
        decimals: Number(creation.decimals),
        treasury,
        totalSupply: creation.initialSupply,
        nextSerial: 1n,
        ...(supplier ? { manager: numOfLongZero(supplier.contract) ?? 0n } : {}),
      });
      ledger.tokenBalances.set(`${treasury}/${num}`, creation.initialSupply);
    },
  };
}

/**
 * Whose key an operation needs: the account it acts for, or for a change of a token's supply, pause, freezes, KYC,
 * an account's units (a wipe) or for its deletion the token's manager. The
 * simulator only makes calls in which that is the calling contract (its own account, or a key naming its contract
 * id), the one authorization a contract call has without signatures it cannot carry.
 */
function authority(ledger: Ledger, operation: HtsOperation, data: Uint8Array, caller: bigint): bigint | undefined {
  switch (operation) {
    case 'transferToken':
      return accountArg(ledger, data, 1);
    case 'transferTokens': {
      const debited = new Set(
        unitAdjustmentsArg(ledger, data)
          .filter((a) => a.amount < 0n)
          .map((a) => a.account),
      );
      return debited.size === 1 ? [...debited][0] : undefined;
    }
    case 'cryptoTransferV2': {
      const { hbar, tokens } = cryptoTransferArg(ledger, data);
      const debited = new Set(
        [...hbar, ...tokens.flatMap((list) => list.adjustments)].filter((a) => a.amount < 0n).map((a) => a.account),
      );
      return debited.size === 1 ? [...debited][0] : undefined;
    }
    case 'transferNFT':
    case 'transferNFTs': {
      const senders = new Set(nftMovesArg(ledger, operation, data).moves.map((move) => move.from));
      return senders.size === 1 ? [...senders][0] : undefined;
    }
    case 'approve':
      return caller;
    case 'associateToken':
    case 'dissociateToken':
      return accountArg(ledger, data, 0);
    case 'createFungibleToken':
      return accountOf(ledger, readCreation(data, 'FUNGIBLE_COMMON').treasury);
    case 'createNonFungibleToken':
      return accountOf(ledger, readCreation(data, 'NON_FUNGIBLE_UNIQUE').treasury);
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
    const gas = operation && gasOf(ledger, operation, data);
    if (!operation || !gas || isStatic || gas > gasLimit) return haltResult(gasLimit);
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
      hbar: dispatch.status === SUCCESS && dispatch.hbar ? dispatch.hbar : new HbarTransfers(),
      receipt: dispatch.status === SUCCESS ? (dispatch.receipt ?? {}) : {},
      record: dispatch.status === SUCCESS ? (dispatch.record ?? {}) : {},
      fee: dispatch.fee ?? 0n,
      input: data,
      output,
      gasLimit,
      gasUsed: gas,
    });
    return {
      returnValue: output,
      executionGasUsed: gas,
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

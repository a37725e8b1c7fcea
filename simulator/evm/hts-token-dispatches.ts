/**
 * The dispatches of the HTS system contract's supply and creation calls: a mint or burn of NFTs, and a TokenCreate of
 * a fungible token or an NFT collection (hts-create.ts reads its arguments).
 */
import { accountPb, contractPb, i64, longZeroAddress, numOfLongZero, tokenPb } from '../ledger/ids.ts';
import type { Ledger, Token } from '../ledger/ledger.ts';
import { TokenTransfers } from '../network/transfers.ts';
import { addressWord, readUint, word } from './abi.ts';
import { accountOf, arrayArg, bytesListArg } from './hts-arguments.ts';
import { creationFee, KEY_FIELDS, readCreation, SUPPLY_KEY_TYPE } from './hts-create.ts';
import {
  type Dispatch,
  INSUFFICIENT_TX_FEE,
  SUCCESS,
  TOKEN_IS_PAUSED,
  TREASURY_MUST_OWN_BURNED_NFT,
} from './hts-dispatch.ts';

/**
 * A mint of NFTs (one serial for each metadata, the next serials of the token, owned by its treasury) or a burn of
 * serials the treasury owns, as TokenMint and TokenBurn decide them for a token that is not paused. A mint answers the
 * new total supply and its serials, a burn the new total supply; the child record moves the serials from or to 0.0.0
 * and its receipt carries the new total supply (and a mint's serial numbers).
 */
export function nftSupplyDispatch(
  ledger: Ledger,
  operation: 'mintToken' | 'burnToken',
  token: Token,
  data: Uint8Array,
) {
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
        const minted = metadata.map((meta) => ledger.mintNft(token, meta));
        return () => {
          for (const serial of minted.reverse()) ledger.unmintNft(token, serial);
        };
      },
    } satisfies Dispatch;
  }
  const serials = arrayArg(data, 2).map(readUint);
  for (const serial of serials) tokens.nft(token.num, { serial, from: token.treasury, to: 0n });
  const held = serials.every((serial) => {
    const nft = ledger.nft(token.num, serial);
    return nft !== undefined && !nft.deleted && nft.owner === token.treasury;
  });
  const ok = !token.paused && held;
  const supply = ok ? token.totalSupply - BigInt(serials.length) : 0n;
  return {
    status: token.paused ? TOKEN_IS_PAUSED : held ? SUCCESS : TREASURY_MUST_OWN_BURNED_NFT,
    body: { tokenBurn: { token: address, serialNumbers: serials.map(i64) } },
    words: [word(supply)],
    receipt: { newTotalSupply: i64(supply) },
    tokens,
    effect: () => {
      for (const serial of serials) ledger.burnNft(token, serial);
      return () => {
        for (const serial of [...serials].reverse()) ledger.restoreNft(token, serial, token.treasury);
      };
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
export function createDispatch(
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
      return () => {
        ledger.tokens.delete(num);
        ledger.tokenBalances.delete(`${treasury}/${num}`);
      };
    },
  };
}

import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { HOLDER, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  MINTED_NFT,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertNft, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bytes, encode, int } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { calldata, word } from './testing/system-evm.ts';

/** An NFT whose metadata key (and no supply key) names the contract; its serial 1 is held by the receiver. */
const META = 2000n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertNft(sql, { token_id: MINTED_NFT, serial_number: 1, created_timestamp: GENESIS, account_id: CONTRACT });
  await insertNft(sql, { token_id: MINTED_NFT, serial_number: 2, created_timestamp: GENESIS, account_id: RECEIVER });
  await insertToken(sql, META, GENESIS, {
    type: 'NON_FUNGIBLE_UNIQUE',
    decimals: 0,
    total_supply: 1,
    treasury_account_id: CONTRACT,
    metadata_key: CONTRACT_KEY,
  });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: META, balance: 1 });
  await insertNft(sql, { token_id: META, serial_number: 1, created_timestamp: GENESIS, account_id: RECEIVER });
});

const update = (token: bigint, serials: bigint[], metadata: Uint8Array) =>
  calldata(
    'updateNFTsMetadata(address,int64[],bytes)',
    encode(address(longZeroAddress(token)), array(serials.map((serial) => int(serial))), bytes(metadata)),
  );

const text = (value: string) => new TextEncoder().encode(value);

async function status(token: bigint, serials: bigint[], metadata = text('new'), caller = CONTRACT) {
  const { call } = await writesEvm(ledger.db);
  const result = await call(HTS, update(token, serials, metadata), { caller: longZeroAddress(caller) });
  expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_UPDATE_NFTS'));
  return responseCodeName(Number(returned(result).int(0)));
}

describe('updateNFTsMetadata on 0x167', () => {
  it('updates serials the treasury holds with the supply key, and a later tokenURI reads the new metadata', async () => {
    const { both } = await writesEvm(ledger.db);
    const uri = await both(
      { to: HTS, data: update(MINTED_NFT, [1n], text('ipfs://new')) },
      { to: longZeroAddress(MINTED_NFT), data: calldata('tokenURI(uint256)', word(1n)) },
    );
    expect(new TextDecoder().decode(returned(uri).bytes(0))).toBe('ipfs://new');
  });

  it('needs the metadata key for a serial outside the treasury', async () => {
    expect(await status(MINTED_NFT, [1n, 2n])).toBe('TOKEN_HAS_NO_METADATA_KEY');
    expect(await status(META, [1n])).toBe('SUCCESS');
    expect(await status(META, [1n], text('new'), HOLDER)).toBe('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
  });

  it('answers the handler’s statuses for bad serials, metadata and tokens', async () => {
    expect(await status(MINTED_NFT, [])).toBe('MISSING_SERIAL_NUMBERS');
    expect(await status(MINTED_NFT, [7n])).toBe('INVALID_NFT_ID');
    expect(await status(MINTED_NFT, [1n], new Uint8Array(101))).toBe('METADATA_TOO_LONG');
    expect(
      await status(
        MINTED_NFT,
        Array.from({ length: 11 }, () => 1n),
      ),
    ).toBe('BATCH_SIZE_LIMIT_EXCEEDED');
    expect(await status(RECEIVER, [1n])).toBe('INVALID_TOKEN_ID');
  });
});

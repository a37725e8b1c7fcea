import { proto } from '@hiero-ledger/proto';
import { describe, expect, it } from 'vitest';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  HTS,
  MINTED,
  MINTED_NFT,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { exchangeRateSetBytes, FILE_CREATE, insertFileData } from '../../../test/harness/factories-network.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bytes, encode, int } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { calldata } from './testing/system-evm.ts';

const SECOND = 1_000_000_000n;
const FAR = 4_000_000_000;
const NONE = {
  min: 0,
  max: 1_000_000_000_000_000,
  constant: 0,
  bpt: 0,
  vpt: 0,
  rbh: 0,
  sbh: 0,
  gas: 0,
  bpr: 0,
  sbpr: 0,
};

/**
 * A 0.0.111 whose current schedule expired at the epoch's first second, so the next one is in force: it prices an
 * NFT mint at $0.02 a metadata, a dissociation and a fungible token transfer by their bytes (as in hapi-fee.test.ts),
 * and a pause by a constant above its canonical price.
 */
function feeScheduleFile(): Uint8Array {
  const next = {
    expiryTime: { seconds: FAR },
    transactionFeeSchedule: [
      // Replaced by the later entry for the same functionality and subtype.
      {
        hederaFunctionality: proto.HederaFunctionality.TokenMint,
        fees: [
          { subType: proto.SubType.TOKEN_NON_FUNGIBLE_UNIQUE, nodedata: { ...NONE, constant: 1_000_000_000_000 } },
        ],
      },
      // The deprecated single `feeData` prices the DEFAULT subtype: 1.2e10 units, 12,000,000 tinycents.
      {
        hederaFunctionality: proto.HederaFunctionality.TokenPause,
        feeData: { nodedata: { ...NONE, constant: 12_000_000_000 }, networkdata: NONE, servicedata: NONE },
      },
      {
        hederaFunctionality: proto.HederaFunctionality.TokenMint,
        fees: [
          {
            subType: proto.SubType.TOKEN_NON_FUNGIBLE_UNIQUE,
            nodedata: { ...NONE, bpt: 20_000_000_000 },
            networkdata: { ...NONE, bpt: 180_000_000_000 },
            servicedata: NONE,
          },
        ],
      },
      {
        hederaFunctionality: proto.HederaFunctionality.TokenDissociateFromAccount,
        fees: [
          {
            nodedata: { ...NONE, bpt: 200_000_000 },
            networkdata: { ...NONE, bpt: 800_000_000 },
            servicedata: { ...NONE, constant: 100_000_000_000 },
          },
        ],
      },
      {
        hederaFunctionality: proto.HederaFunctionality.CryptoTransfer,
        fees: [
          {
            subType: proto.SubType.TOKEN_FUNGIBLE_COMMON,
            nodedata: { ...NONE, constant: 10_000_000_000, bpt: 1_000_000 },
            networkdata: { ...NONE, bpt: 4_000_000 },
            servicedata: { ...NONE, rbh: 10_000 },
          },
        ],
      },
    ],
  };
  const message = {
    currentFeeSchedule: { expiryTime: { seconds: 1 }, transactionFeeSchedule: [] },
    nextFeeSchedule: next,
  } as unknown as proto.ICurrentAndNextFeeSchedule;
  return proto.CurrentAndNextFeeSchedule.encode(message).finish();
}

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertFileData(sql, {
    consensus_timestamp: GENESIS + SECOND,
    entity_id: 112n,
    file_data: exchangeRateSetBytes({ hbars: 1, cents: 12, expiration: FAR }, { hbars: 1, cents: 12, expiration: FAR }),
    transaction_type: FILE_CREATE,
  });
  await insertFileData(sql, {
    consensus_timestamp: GENESIS + 2n * SECOND,
    entity_id: 111n,
    file_data: feeScheduleFile(),
    transaction_type: FILE_CREATE,
  });
});

const contract = { caller: longZeroAddress(CONTRACT) };
const mintNfts = (count: number) =>
  calldata(
    'mintToken(address,int64,bytes[])',
    encode(
      address(longZeroAddress(MINTED_NFT)),
      int(0n),
      array(Array.from({ length: count }, (_, i) => bytes(new Uint8Array([i])))),
    ),
  );

describe('system contract gas under the fee schedule of the block', () => {
  it('charges a mint of many NFTs its HAPI fee, and of one the canonical price that exceeds it', async () => {
    const { call } = await writesEvm(ledger.db);
    const one = await call(HTS, mintNfts(1), contract);
    expect(returned(one).int(0)).toBe(22n);
    expect(one.executionGasUsed).toBe(canonicalGas('MINT_NFT'));
    const ten = await call(HTS, mintNfts(10), contract);
    expect(returned(ten).int(0)).toBe(22n);
    expect(ten.executionGasUsed).toBe(2_818_100n);
  });

  it('charges a transfer of ten adjustments its HAPI fee whatever its outcome', async () => {
    const { call } = await writesEvm(ledger.db);
    const accounts = [CONTRACT, ...Array.from({ length: 9 }, () => RECEIVER)];
    const amounts = [-9n, ...Array.from({ length: 9 }, () => 1n)];
    const data = calldata(
      'transferTokens(address,address[],int64[])',
      encode(
        address(longZeroAddress(MINTED)),
        array(accounts.map((id) => address(longZeroAddress(id)))),
        array(amounts.map((amount) => int(amount))),
      ),
    );
    const result = await call(HTS, data, contract);
    expect(result.executionGasUsed).toBe(936_475n);
  });

  it('charges a dissociation of twenty tokens its estimated fee, the body counted before any check', async () => {
    const { call } = await writesEvm(ledger.db);
    const tokens = Array.from({ length: 20 }, (_, i) => address(longZeroAddress(5000n + BigInt(i))));
    const data = calldata(
      'dissociateTokens(address,address[])',
      encode(address(longZeroAddress(CONTRACT)), array(tokens)),
    );
    const result = await call(HTS, data, contract);
    expect(returned(result).int(0)).toBe(167n);
    expect(result.executionGasUsed).toBe(958_946n);
  });

  it('prices a pause by an entry in the deprecated single feeData form', async () => {
    const { call } = await writesEvm(ledger.db);
    const data = calldata('pauseToken(address)', encode(address(longZeroAddress(MINTED))));
    const result = await call(HTS, data, contract);
    expect(returned(result).int(0)).toBe(22n);
    // 1,000,000 ℏ at 1 ℏ = 12 ¢ is 12,000,000 tinycents against the canonical 10,000,000: 15,084 gas plus a fifth.
    expect(result.executionGasUsed).toBe(18_100n);
  });

  it('keeps the canonical price for a body the schedule has no entry for', async () => {
    const { call } = await writesEvm(ledger.db);
    const data = calldata(
      'mintToken(address,int64,bytes[])',
      encode(address(longZeroAddress(MINTED)), int(5n), array([])),
    );
    const result = await call(HTS, data, contract);
    expect(returned(result).int(0)).toBe(22n);
    expect(result.executionGasUsed).toBe(canonicalGas('MINT_FUNGIBLE'));
  });
});

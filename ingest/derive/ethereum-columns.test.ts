import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { type EthereumType, signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import type { RecordItem } from '../decode/record-item.ts';
import type { PbContractFunctionResult } from '../decode/types.ts';
import type { ItemContext } from './context.ts';
import { contractResult } from './contract-result.ts';
import { ethereumTransaction, javaBigIntegerBytes } from './ethereum.ts';
import { FileRows } from './file-rows.ts';

const KEY = new Uint8Array(32).fill(0x11);
const TO = new Uint8Array(20).fill(0xab);
const SUCCESS = 22;
const CONTRACT_REVERT_EXECUTED = 33;
const INSUFFICIENT_GAS = 30;
const WRONG_NONCE = 312;
const hex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');

function signed(type: EthereumType, value: bigint, gasPrice = 71n * 10_000_000_000n): Uint8Array {
  return signEthereumCall(
    { type, nonce: 5n, gasPrice, gasLimit: 90_000n, to: TO, value, data: Uint8Array.of(0xde, 0xad) },
    KEY,
  ).raw;
}

function ethereumItem(
  data: Uint8Array,
  options: { status?: number; result?: Partial<PbContractFunctionResult>; hash?: boolean } = {},
): ItemContext {
  const status = options.status ?? SUCCESS;
  const result = options.result && { logInfo: [], createdContractIDs: [], contract_nonces: [], ...options.result };
  const item = {
    index: 3,
    consensusTimestamp: 900n,
    type: 50,
    successful: status === SUCCESS,
    status,
    payerAccountId: 1001n,
    bodyName: 'ethereumTransaction',
    body: { ethereumTransaction: { ethereum_data: data, max_gas_allowance: 1000n }, transactionID: {} },
    record: {
      transactionHash: new Uint8Array(48).fill(9),
      ...(options.hash === false ? {} : { ethereum_hash: keccak_256(data) }),
      ...(result ? { contractCallResult: result } : {}),
    },
  } as unknown as RecordItem;
  return { item, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

function derive(ctx: ItemContext) {
  ethereumTransaction(ctx);
  contractResult(ctx);
  return {
    ethereum: ctx.rows.rows('ethereum_transaction')[0],
    result: ctx.rows.rows('contract_result')[0],
    nonce: ctx.rows.changes.get('entity')?.map((c) => c.row.ethereum_nonce),
  };
}

describe("ethereum_transaction columns, as the importer's parsers store them", () => {
  it("store the value as Java's BigInteger.toByteArray(): 0x00 for zero, a 0x00 before a high bit", () => {
    expect(hex(javaBigIntegerBytes(0n))).toBe('00');
    expect(hex(javaBigIntegerBytes(0x7fn))).toBe('7f');
    expect(hex(javaBigIntegerBytes(0x80n))).toBe('0080');
    expect(hex(javaBigIntegerBytes(10n ** 19n))).toBe('008ac7230489e80000');
    for (const type of [0, 1, 2, 4] as const) {
      for (const [value, stored] of [
        [0n, '00'],
        [1n, '01'],
        [10n ** 19n, '008ac7230489e80000'],
      ] as const) {
        const { ethereum } = derive(ethereumItem(signed(type, value)));
        expect([type, value, hex(ethereum?.value)]).toEqual([type, value, stored]);
      }
    }
  });

  it('keep empty RLP items as empty bytes and the fields a type lacks as NULL', () => {
    const legacy = derive(ethereumItem(signed(0, 0n, 0n))).ethereum ?? {};
    const v = legacy.signature_v as Uint8Array;
    expect(legacy).toMatchObject({ type: 0, access_list: null, max_fee_per_gas: null, max_priority_fee_per_gas: null });
    // chain id 298 from v (EIP-155), as BigInteger.toByteArray(); v kept verbatim; an empty gas price stays empty.
    expect([hex(legacy.chain_id), hex(legacy.gas_price), v.length]).toEqual(['012a', '', 2]);
    // v = 298 × 2 + 35 + the recovery bit: an odd v is recovery id 0 (the importer's testBit(0) ? 0 : 1).
    expect(legacy.recovery_id).toBe((v[1] ?? 0) % 2 === 1 ? 0 : 1);
    for (const type of [1, 2, 4] as const) {
      const row = derive(ethereumItem(signed(type, 0n))).ethereum;
      const dynamic = type !== 1;
      expect(row?.signature_v).toBeNull();
      expect(hex(row?.chain_id)).toBe('012a');
      expect(hex(row?.access_list)).toBe('');
      expect(row?.gas_price === null).toBe(dynamic);
      expect(row?.max_fee_per_gas === null).toBe(!dynamic);
      if (dynamic) expect(hex(row?.max_priority_fee_per_gas)).toBe('');
    }
    const row = derive(ethereumItem(signed(2, 0n))).ethereum;
    expect([hex(row?.to_address), hex(row?.call_data), row?.call_data_id, row?.max_gas_allowance]).toEqual([
      hex(TO),
      'dead',
      null,
      1000n,
    ]);
  });

  it("store a type 4 transaction's authorizations as JSON with hex digits without 0x, as the importer does", () => {
    const authorization = {
      chainId: 298n,
      address: TO,
      nonce: 7n,
      yParity: 1n,
      r: new Uint8Array(32).fill(0x22),
      s: new Uint8Array(32).fill(0x33),
    };
    const data = signEthereumCall(
      {
        type: 4,
        nonce: 5n,
        gasPrice: 1n,
        gasLimit: 90_000n,
        to: TO,
        data: new Uint8Array(),
        authorizations: [authorization],
      },
      KEY,
    ).raw;
    const row = derive(ethereumItem(data)).ethereum;
    expect(row?.authorization_list).toEqual([
      { chain_id: '012a', address: hex(TO), nonce: 7n, y_parity: 1, r: '22'.repeat(32), s: '33'.repeat(32) },
    ]);
  });

  it('hash the signed bytes when the record carries no Ethereum hash', () => {
    const data = signed(2, 0n);
    const { ethereum, result } = derive(ethereumItem(data, { hash: false, result: { gasUsed: 21_000n } }));
    expect(hex(ethereum?.hash)).toBe(hex(keccak_256(data)));
    expect(hex(result?.transaction_hash)).toBe(hex(keccak_256(data)));
  });

  it("move the signer's nonce from the record's signer_nonce, or (before HAPI 0.47) by one unless it failed early", () => {
    const sender = { accountNum: 1500n };
    const recorded = derive(
      ethereumItem(signed(2, 0n), { result: { sender_id: sender, signer_nonce: { value: 9n } } }),
    );
    expect(recorded.nonce).toEqual([9n]);
    const old = (status: number) => {
      const ctx = {
        ...ethereumItem(signed(2, 0n), { status, result: { sender_id: sender, gasUsed: 1n } }),
        hapiMinor: 46,
      };
      return derive(ctx).nonce;
    };
    expect(old(SUCCESS)).toEqual([6n]);
    expect(old(CONTRACT_REVERT_EXECUTED)).toEqual([6n]);
    expect(old(INSUFFICIENT_GAS)).toBeUndefined();
  });
});

describe('contract_result of an Ethereum transaction', () => {
  it('takes amount, gas limit and parameters from the function result, and keeps its own columns', () => {
    const data = signed(1, 5n * 10_000_000_000n);
    const { result } = derive(
      ethereumItem(data, {
        result: {
          contractID: { contractNum: 1200n },
          amount: 5n,
          gas: 90_000n,
          gasUsed: 72_000n,
          functionParameters: Uint8Array.of(0xde, 0xad),
          bloom: new Uint8Array(256),
          sender_id: { accountNum: 1500n },
        },
      }),
    );
    expect(result).toMatchObject({ contract_id: 1200n, amount: 5n, gas_limit: 90_000n, gas_used: 72_000n });
    expect(result).toMatchObject({ sender_id: 1500n, error_message: '' });
    // A bloom of 256 zero bytes is stored empty (ContractResult.setBloom).
    expect(hex(result?.bloom)).toBe('');
    // function_result: the serialized ContractFunctionResult, as the importer keeps it.
    const decoded = hapi()
      .root.lookupType('proto.ContractFunctionResult')
      .decode(result?.function_result as Uint8Array)
      .toJSON();
    expect(decoded).toMatchObject({ contractID: { contractNum: '1200' }, gasUsed: '72000', amount: '5' });
  });

  it('is a default row when it failed before the EVM ran, and none for WRONG_NONCE', () => {
    const data = signed(0, 0n);
    const { result } = derive(ethereumItem(data, { status: INSUFFICIENT_GAS }));
    expect(result).toMatchObject({
      amount: null,
      bloom: null,
      contract_id: 0n,
      error_message: null,
      function_result: null,
      gas_limit: 90_000n,
      gas_used: 0n,
      sender_id: 1001n,
      transaction_result: INSUFFICIENT_GAS,
    });
    expect([hex(result?.function_parameters), hex(result?.call_result)]).toEqual(['dead', '']);
    expect(derive(ethereumItem(data, { status: WRONG_NONCE })).result).toBeUndefined();
  });
});

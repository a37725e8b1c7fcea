import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { PbContractFunctionResult } from '../decode/types.ts';
import type { ItemContext } from './context.ts';
import { contractCreate } from './contract.ts';
import { contractResult } from './contract-result.ts';
import { cryptoCreate } from './crypto.ts';
import { FileRows } from './file-rows.ts';

const SUCCESS = 22;
const INSUFFICIENT_PAYER_BALANCE = 10;
const hex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');

function item(
  type: number,
  bodyName: string,
  body: Record<string, unknown>,
  record: Record<string, unknown>,
  status = SUCCESS,
): ItemContext {
  const full = {
    index: 0,
    consensusTimestamp: 700n,
    type,
    successful: status === SUCCESS,
    status,
    payerAccountId: 1001n,
    bodyName,
    body: { [bodyName]: body, transactionID: { nonce: 0 } },
    record: { transactionHash: new Uint8Array(48).fill(4), ...record },
  } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

const functionResult = (fields: Partial<PbContractFunctionResult>): PbContractFunctionResult => ({
  logInfo: [],
  createdContractIDs: [],
  contract_nonces: [],
  ...fields,
});

describe('contract_result of a contract call or create', () => {
  it("takes amount, gas limit and parameters from the call's body and the rest from its function result", () => {
    const ctx = item(
      7,
      'contractCall',
      { contractID: { contractNum: 1200n }, gas: 50_000n, amount: 3n, functionParameters: Uint8Array.of(1, 2) },
      {
        contractCallResult: functionResult({
          contractID: { contractNum: 1200n },
          gasUsed: 40_000n,
          gas: 1n,
          amount: 99n,
          contractCallResult: Uint8Array.of(7),
          bloom: Uint8Array.of(0, 1),
        }),
      },
    );
    contractResult(ctx);
    const row = ctx.rows.rows('contract_result')[0];
    expect(row).toMatchObject({ contract_id: 1200n, amount: 3n, gas_limit: 50_000n, gas_used: 40_000n });
    expect([hex(row?.function_parameters), hex(row?.call_result), hex(row?.bloom)]).toEqual(['0102', '07', '0001']);
    // The transaction hash of a HAPI transaction: the first 32 bytes of its 48-byte hash.
    expect(hex(row?.transaction_hash)).toBe('04'.repeat(32));
    const byHash = ctx.rows.rows('contract_transaction_hash')[0];
    expect(byHash).toMatchObject({ consensus_timestamp: 700n, entity_id: 1200n, payer_account_id: 1001n });
    expect(hex(byHash?.hash)).toBe('04'.repeat(32));
  });

  it('leaves the function result columns NULL when the record has none (the call failed before the EVM)', () => {
    const ctx = item(
      7,
      'contractCall',
      { contractID: { contractNum: 1200n }, gas: 50_000n, functionParameters: Uint8Array.of(1) },
      {},
      INSUFFICIENT_PAYER_BALANCE,
    );
    contractResult(ctx);
    expect(ctx.rows.rows('contract_result')[0]).toMatchObject({
      amount: 0n,
      bloom: null,
      call_result: null,
      created_contract_ids: [],
      error_message: null,
      function_result: null,
      gas_limit: 50_000n,
      gas_used: null,
      sender_id: 1001n,
    });
  });

  it('keeps the init code of a failed create', () => {
    const initcode = Uint8Array.of(0x60, 0x80);
    const ctx = item(8, 'contractCreateInstance', { initcode, gas: 10n, initialBalance: 4n }, {}, 33);
    contractResult(ctx);
    const row = ctx.rows.rows('contract_result')[0];
    expect([row?.amount, hex(row?.failed_initcode)]).toEqual([4n, '6080']);
  });
});

describe('contract_log', () => {
  it('stores topics without their leading zero bytes, one byte at least, as the importer does', () => {
    const word = (last: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 0));
    const ctx = item(
      7,
      'contractCall',
      { contractID: { contractNum: 1200n } },
      {
        contractCallResult: functionResult({
          contractID: { contractNum: 1200n },
          logInfo: [
            {
              contractID: { contractNum: 1200n },
              topic: [new Uint8Array(32).fill(0xdd), word(0x2a), word(0)],
              data: Uint8Array.of(1),
            },
          ],
        }),
      },
    );
    contractResult(ctx);
    const log = ctx.rows.rows('contract_log')[0];
    expect([hex(log?.topic0), hex(log?.topic1), hex(log?.topic2), log?.topic3]).toEqual([
      'dd'.repeat(32),
      '2a',
      '00',
      null,
    ]);
  });
});

describe('gas_consumed of a contract result', () => {
  const call = (hapiMinor: number, sidecars?: ItemContext['sidecars']) => {
    const ctx = item(
      7,
      'contractCall',
      { contractID: { contractNum: 1200n }, gas: 50_000n, functionParameters: Uint8Array.of(1, 0) },
      { contractCallResult: functionResult({ contractID: { contractNum: 1200n }, gasUsed: 40_000n }) },
    );
    contractResult({ ...ctx, hapiMinor, ...(sidecars ? { sidecars } : {}) });
    return ctx.rows.rows('contract_result')[0]?.gas_consumed;
  };

  it("is the top-level action's gas plus the payload's intrinsic gas before HAPI 0.69, NULL without actions", () => {
    const facts = {
      topLevelGasUsed: 30_000n,
      creation: false,
      initcode: undefined,
      bytecodes: [],
      stateContracts: [],
      hookStateChanges: [],
    };
    expect(call(58, new Map([[700n, facts]]))).toBe(30_000n + 21_000n + 16n + 4n);
    expect(call(58)).toBeNull();
  });

  it('is the gas used from HAPI 0.69 on', () => {
    expect(call(69)).toBe(40_000n);
  });

  it("counts a creation's init code from its bytecode sidecar and the creation's extra 32,000", () => {
    const ctx = item(
      8,
      'contractCreateInstance',
      { fileID: { fileNum: 1500n }, gas: 90_000n },
      { contractCreateResult: functionResult({ contractID: { contractNum: 1201n }, gasUsed: 80_000n }) },
      33,
    );
    const initcode = Uint8Array.of(0x60, 0, 0x60);
    const facts = {
      topLevelGasUsed: 50_000n,
      creation: true,
      initcode,
      bytecodes: [],
      stateContracts: [],
      hookStateChanges: [],
    };
    contractResult({ ...ctx, hapiMinor: 58, sidecars: new Map([[700n, facts]]) });
    const row = ctx.rows.rows('contract_result')[0];
    expect(row?.gas_consumed).toBe(50_000n + 21_000n + 16n + 4n + 16n + 32_000n);
    // A failed creation keeps the init code its bytecode sidecar gave.
    expect(hex(row?.failed_initcode)).toBe('600060');
  });
});

describe('contract_result of a precompile call (a child record with a function result)', () => {
  it('is written with the contract of the result and amount, gas and parameters from the result', () => {
    const ctx = item(
      37,
      'tokenMint',
      { token: { tokenNum: 1300n } },
      {
        contractCallResult: functionResult({
          contractID: { contractNum: 359n },
          gas: 25_000n,
          amount: 0n,
          functionParameters: Uint8Array.of(9),
          gasUsed: 10_000n,
        }),
      },
    );
    contractResult(ctx);
    const row = ctx.rows.rows('contract_result')[0];
    expect(row).toMatchObject({ contract_id: 359n, gas_limit: 25_000n, gas_used: 10_000n, amount: 0n });
    expect(hex(row?.function_parameters)).toBe('09');
  });

  it('is not written for an item whose record has no function result', () => {
    const ctx = item(37, 'tokenMint', { token: { tokenNum: 1300n } }, { contractCallResult: functionResult({}) });
    contractResult(ctx);
    expect(ctx.rows.rows('contract_result')).toEqual([]);
  });
});

describe('the balance of a created account or contract', () => {
  it('starts at 0 at creation (never NULL), as the importer sets it', () => {
    const account = item(
      11,
      'cryptoCreateAccount',
      { key: Uint8Array.of(1) },
      { receipt: { accountID: { accountNum: 1400n } } },
    );
    cryptoCreate(account);
    expect(account.rows.entityBalances.get(1400n)).toEqual({ amount: 0n, timestamp: 700n });
    const contract = item(
      8,
      'contractCreateInstance',
      { gas: 10n },
      {
        receipt: { contractID: { contractNum: 1401n } },
        contractCreateResult: functionResult({
          contractID: { contractNum: 1401n },
          createdContractIDs: [{ contractNum: 1401n }, { contractNum: 1402n }],
        }),
      },
    );
    contractCreate(contract);
    // Before services 0.23 a contract another's code creates has no record of its own.
    contractResult({ ...contract, hapiMinor: 22 });
    expect(contract.rows.entityBalances.get(1401n)).toEqual({ amount: 0n, timestamp: 700n });
    // A contract the create's own code created (CREATE/CREATE2) gets its entity, balance 0 and no nonce yet.
    expect(contract.rows.entityBalances.get(1402n)).toEqual({ amount: 0n, timestamp: 700n });
    const created = contract.rows.changes.get('entity')?.find((c) => c.row.id === 1402n)?.row;
    expect(created).toMatchObject({ type: 'CONTRACT', max_automatic_token_associations: 0 });
  });
});

/**
 * Every contract transaction of a simulated ledger, replayed on its own in a fresh @ethereumjs EVM from the state
 * the records before it describe (runtime code from bytecode sidecars, storage from state-change sidecars), must
 * give what its record says: status, output, logs, storage writes, and the EVM's gas; and the recorded `gasUsed`
 * must be Hedera's charge, max(EVM gas, 80% of the limit). The gas rules here are written out again from the EIPs,
 * independently of the simulator's. A type 4 transaction's authorizations are checked and applied here from their
 * signatures (EIP-7702: chain id 0 or the network's, the authority's nonce), each applied one must have its child
 * CryptoUpdate with `delegation_address`, and a later call to a delegated account runs its delegate's code.
 *
 * Two rules are the consensus node's, taken here from the streams rather than from the simulator's model
 * (docs/adr/0021-opcode-trace.md): `msg.sender` and `tx.origin` are the EVM address the sender's alias stands for,
 * else its long-zero address; and every authorization of a type 4 transaction costs 25,000 intrinsic gas, skipped
 * or not, with 12,500 of it refunded (through the refund counter) for each one applied to an existing account.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEthereumTransaction, type EthereumTransaction } from '../../ingest/decode/ethereum-transaction.ts';
import { aliasEvmAddress } from '../../ingest/decode/key.ts';
import { decodeRlp, encodeRlp, type RlpItem } from '../../ingest/decode/rlp.ts';
import type { LedgerSnapshot } from '../ledger/export.ts';
import { parseOptions } from '../main.ts';
import { simulate } from '../run.ts';
import { type Plain, readVerifiedOutput } from '../testing/read-output.ts';
import { LEDGER_FILE } from '../write/layout.ts';

const SUCCESS = 22;
const CHAIN_ID = 298n;
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const trim = (value: string) => value.replace(/^(00)+/, '');
const longZero = (num: bigint) => `${'0'.repeat(24)}${num.toString(16).padStart(16, '0')}`;
const nsOf = (t: Plain) => BigInt(t.seconds ?? 0) * 1_000_000_000n + BigInt(t.nanos ?? 0);

/** Storage writes as the EVM makes them, so the replay sees every slot it wrote (reverted writes included). */
class RecordingState extends SimpleStateManager {
  readonly written = new Set<string>();
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.written.add(`${address.toString().slice(2)}/${hex(key)}`);
    return super.putStorage(address, key, value);
  }
}

/**
 * The address that signed a raw Ethereum transaction: the signature is over the keccak of the payload without it
 * (legacy: with the chain id and two empty fields instead, EIP-155).
 */
function signerOf(raw: Uint8Array, tx: EthereumTransaction): string {
  const payload = signingPayload(raw, tx);
  const signature = new Uint8Array(65);
  signature[0] = tx.recoveryId;
  signature.set(tx.r, 33 - tx.r.length);
  signature.set(tx.s, 65 - tx.s.length);
  const key = secp256k1.recoverPublicKey(signature, keccak_256(payload), { prehash: false });
  const point = secp256k1.Point.fromBytes(key).toBytes(false);
  return hex(keccak_256(point.subarray(1)).subarray(12));
}

/** The signed fields of a transaction: all but the signature (legacy: the chain id and two empty fields instead). */
function signingPayload(raw: Uint8Array, tx: EthereumTransaction): Uint8Array {
  const typed = tx.type !== 0;
  const fields = (decodeRlp(typed ? raw.subarray(1) : raw) as RlpItem[]).slice(0, -3);
  if (!typed) return encodeRlp([...fields, tx.chainId ?? new Uint8Array(), new Uint8Array(), new Uint8Array()]);
  return Uint8Array.from([tx.type, ...encodeRlp(fields)]);
}

/** The account that signed an EIP-7702 authorization: ecrecover(keccak(0x05 || rlp([chain_id, address, nonce]))). */
function authorityOf(entry: RlpItem[]): string {
  const [chainId = new Uint8Array(), address = new Uint8Array(), nonce = new Uint8Array(), yParity, r, s] =
    entry as Uint8Array[];
  const message = Uint8Array.from([0x05, ...encodeRlp([chainId, address, nonce])]);
  const signature = new Uint8Array(65);
  signature[0] = yParity?.[0] ?? 0;
  signature.set(r ?? [], 33 - (r?.length ?? 0));
  signature.set(s ?? [], 65 - (s?.length ?? 0));
  const key = secp256k1.recoverPublicKey(signature, keccak_256(message), { prehash: false });
  return hex(keccak_256(secp256k1.Point.fromBytes(key).toBytes(false).subarray(1)).subarray(12));
}

const uint = (bytes: Uint8Array | undefined) => BigInt(`0x${hex(bytes) || '0'}`);

interface Replayed {
  readonly status: number;
  readonly output: string;
  readonly logs: string[];
  readonly writes: string[];
  readonly evmGas: bigint;
}

/** The Ethereum rules of one transaction: intrinsic gas (EIP-2028, EIP-3860), warm sets (EIP-2929), refunds (EIP-3529). */
async function replayOne(
  contracts: ReadonlyMap<string, { runtime: Uint8Array; storage: Map<string, string> }>,
  tx: {
    sender: string;
    to: string | undefined;
    data: Uint8Array;
    gas: bigint;
    /** Tinybars sent: an Ethereum transaction's weibar value / 10^10. */
    value: bigint;
    /** Type 4: every authorization, and the authorities of those applied (all existing accounts). */
    authorizations: number;
    authorities: readonly string[];
  },
): Promise<Replayed & { created: string | undefined }> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun, eips: [7702] });
  const state = new RecordingState({ common });
  for (const [address, contract] of contracts) {
    const at = new Address(Buffer.from(address, 'hex'));
    await state.putAccount(at, new Account(1n));
    await state.putCode(at, contract.runtime);
    for (const [slot, value] of contract.storage) {
      await state.putStorage(at, Buffer.from(slot.padStart(64, '0'), 'hex'), Buffer.from(value, 'hex'));
    }
  }
  state.written.clear();
  const evm = await createEVM({ common, stateManager: state });
  // EIP-7702: 25,000 per authorization; 12,500 of it back (as a refund) for each authority that already existed.
  let intrinsic = 21_000n + 25_000n * BigInt(tx.authorizations);
  for (const byte of tx.data) intrinsic += byte === 0 ? 4n : 16n;
  if (!tx.to) intrinsic += 32_000n + 2n * BigInt(Math.ceil(tx.data.length / 32));
  const sender = new Address(Buffer.from(tx.sender, 'hex'));
  evm.journal.addAlwaysWarmAddress(tx.sender);
  if (tx.to) evm.journal.addAlwaysWarmAddress(tx.to);
  for (const precompile of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(precompile);
  for (const authority of tx.authorities) evm.journal.addAlwaysWarmAddress(authority);
  const result = await evm.runCall({
    caller: sender,
    origin: sender,
    ...(tx.to ? { to: new Address(Buffer.from(tx.to, 'hex')) } : {}),
    data: tx.data,
    gasLimit: tx.gas - intrinsic,
    value: tx.value,
    skipBalance: true,
  });
  const { execResult } = result;
  const ok = !execResult.exceptionError;
  const used = intrinsic + execResult.executionGasUsed;
  const refund = (ok ? (execResult.gasRefund ?? 0n) : 0n) + 12_500n * BigInt(tx.authorities.length);
  const created = tx.to ? undefined : result.createdAddress?.toString().slice(2);
  const writes: string[] = [];
  if (ok) {
    for (const key of state.written) {
      const [address = '', slot = ''] = key.split('/');
      const value = await state.getStorage(new Address(Buffer.from(address, 'hex')), Buffer.from(slot, 'hex'));
      writes.push(`${address}/${trim(slot)}=${trim(hex(value))}`);
    }
  }
  return {
    status: ok ? SUCCESS : 33,
    output: ok && !tx.to ? '' : hex(execResult.returnValue),
    logs: ok
      ? (execResult.logs ?? []).map(([a, topics, data]) => [hex(a), ...topics.map(hex), hex(data)].join(':'))
      : [],
    writes: writes.sort(),
    evmGas: used - (refund < used / 5n ? refund : used / 5n),
    created,
  };
}

describe('contract transactions replayed one by one in a fresh EVM', () => {
  let out: string;
  let ledger: LedgerSnapshot;
  const checked: {
    kind: string;
    delegated: boolean;
    authorities: number;
    skipped: number;
    selector: string;
    sender: string;
    senderLogged: boolean;
    status: number;
    charged: boolean;
  }[] = [];
  const mismatches: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'simulator-replay-'));
    await simulate({
      ...parseOptions(['--out', out, '--files', '6', '--tps', '60', '--seed', 'evm-replay']),
      weights: { callContract: 500, ethereumTransaction: 400, deployContract: 12 },
    });
    ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
    const canonical = new Map(
      ledger.accounts.map((a) => [a.id, a.evmAddress ?? longZero(BigInt(a.id.split('.')[2] ?? 0))]),
    );
    const idOf = new Map([...canonical].map(([id, address]) => [address, id]));
    // A delegated account is called at its EVM address; contracts at their long-zero one.
    const addressOf = (num: unknown) => canonical.get(`0.0.${num}`) ?? longZero(BigInt(String(num ?? 0)));
    const files = [...readVerifiedOutput(out)];
    // The address each account acts under in the EVM, as the node finds it: the EVM address its alias stands for.
    const aliasAddress = new Map<string, string>();
    for (const file of files) {
      for (const { body, record } of file.items) {
        const alias = record.alias?.length ? record.alias : body.cryptoCreateAccount?.alias;
        const address = body.cryptoCreateAccount && aliasEvmAddress(alias);
        if (address) aliasAddress.set(`0.0.${record.receipt?.accountID?.accountNum}`, hex(address));
      }
    }
    const senderAddress = (id: string) => aliasAddress.get(id) ?? longZero(BigInt(id.split('.')[2] ?? 0));
    const delegationChildren = new Map<bigint, Plain>();
    for (const file of files) {
      for (const { body, record } of file.items) {
        if (body.cryptoUpdateAccount && record.parent_consensus_timestamp) {
          delegationChildren.set(nsOf(record.consensusTimestamp), body.cryptoUpdateAccount);
        }
      }
    }
    const evmGasAt = new Map(ledger.contractResults.map((r) => [r.consensusTimestamp, BigInt(r.evmGasUsed)]));
    const contracts = new Map<string, { runtime: Uint8Array; storage: Map<string, string> }>();
    const nonces = new Map<string, bigint>();
    for (const file of files) {
      const sidecars = new Map<bigint, Plain[]>();
      for (const sidecar of file.sidecarRecords) {
        const at = nsOf(sidecar.consensus_timestamp);
        sidecars.set(at, [...(sidecars.get(at) ?? []), sidecar]);
      }
      for (const { body, record, status } of file.items) {
        const result = record.contractCallResult ?? record.contractCreateResult;
        if (!result) continue;
        const at = nsOf(record.consensusTimestamp);
        const own = sidecars.get(at) ?? [];
        const ethereum = body.ethereumTransaction
          ? decodeEthereumTransaction(body.ethereumTransaction.ethereum_data)
          : undefined;
        const call =
          body.contractCall ?? (ethereum && { functionParameters: ethereum.callData, gas: ethereum.gasLimit });
        const create = body.contractCreateInstance;
        const contract = addressOf(result.contractID?.contractNum);
        const data = call
          ? new Uint8Array(call.functionParameters ?? [])
          : new Uint8Array([...create.initcode, ...(create.constructorParameters ?? [])]);
        const sender = senderAddress(`0.0.${result.sender_id?.accountNum}`);
        const gas = BigInt(call?.gas ?? create.gas);
        const authorities: string[] = [];
        if (ethereum) {
          const signer = signerOf(body.ethereumTransaction.ethereum_data, ethereum);
          const expectedNonce = nonces.get(sender) ?? 0n;
          nonces.set(sender, expectedNonce + 1n);
          if (signer !== sender || hex(ethereum.to) !== contract || ethereum.nonce !== expectedNonce) {
            mismatches.push(
              `${at}: signed by ${signer} to ${hex(ethereum.to)} nonce ${ethereum.nonce}, recorded ${sender} to ${contract} nonce ${expectedNonce}`,
            );
          }
          if (
            BigInt(result.signer_nonce?.value ?? -1) !== expectedNonce + 1n ||
            hex(record.ethereum_hash) !== hex(keccak_256(body.ethereumTransaction.ethereum_data))
          ) {
            mismatches.push(`${at}: signer_nonce ${result.signer_nonce?.value} or ethereum_hash differs`);
          }
          for (const entry of (ethereum.authorizationList ?? []) as RlpItem[][]) {
            const authority = authorityOf(entry);
            const [chainId, address = new Uint8Array(), nonce] = entry as Uint8Array[];
            const expected = nonces.get(authority) ?? 0n;
            if (![0n, CHAIN_ID].includes(uint(chainId)) || uint(nonce) !== expected || !idOf.has(authority)) continue;
            nonces.set(authority, expected + 1n);
            authorities.push(authority);
            const child = delegationChildren.get(at + BigInt(authorities.length));
            if (
              `0.0.${child?.accountIDToUpdate?.accountNum}` !== idOf.get(authority) ||
              hex(child?.delegation_address) !== hex(address)
            ) {
              mismatches.push(`${at}: no child CryptoUpdate delegating ${authority} to ${hex(address)}`);
            }
            const designation = /^0+$/.test(hex(address))
              ? new Uint8Array()
              : Uint8Array.of(0xef, 0x01, 0x00, ...address);
            const storage = contracts.get(authority)?.storage ?? new Map<string, string>();
            contracts.set(authority, { runtime: designation, storage });
          }
        }
        const replayed = await replayOne(contracts, {
          sender,
          to: call ? contract : undefined,
          data,
          gas,
          value: ethereum ? uint(ethereum.value) / 10_000_000_000n : 0n,
          authorizations: ethereum?.authorizationList?.length ?? 0,
          authorities,
        });
        // A creation lands at the address the network gave it, not the nonce-derived one of this replay.
        const at20 = (address: string) => (address === replayed.created ? contract : address);
        const recordedWrites = own
          .flatMap((s) => s.state_changes?.contract_state_changes ?? [])
          .flatMap((c: Plain) =>
            (c.storage_changes ?? [])
              .filter((slot: Plain) => slot.value_written)
              .map(
                (slot: Plain) =>
                  `${addressOf(c.contract_id?.contractNum)}/${hex(slot.slot)}=${hex(slot.value_written.value)}`,
              ),
          )
          .sort();
        const actual = {
          status: replayed.status,
          output: replayed.output,
          logs: replayed.logs.map((log) => {
            const [address = '', ...rest] = log.split(':');
            return [at20(address), ...rest].join(':');
          }),
          writes: replayed.writes.map((w) => `${at20(w.slice(0, 40))}${w.slice(40)}`).sort(),
          evmGas: replayed.evmGas,
        };
        const expected = {
          status,
          output:
            status === SUCCESS ? hex(result.contractCallResult) : String(result.errorMessage ?? '').replace(/^0x/, ''),
          logs: (result.logInfo ?? []).map((log: Plain) =>
            [addressOf(log.contractID?.contractNum), ...(log.topic ?? []).map(hex), hex(log.data)].join(':'),
          ),
          writes: recordedWrites,
          evmGas: evmGasAt.get(String(at)),
        };
        const limitFloor = (gas * 80n) / 100n;
        const charged = BigInt(result.gasUsed);
        const expectedCharge = replayed.evmGas > limitFloor ? replayed.evmGas : limitFloor;
        if (
          JSON.stringify(actual, (_, v) => (typeof v === 'bigint' ? String(v) : v)) !==
            JSON.stringify(expected, (_, v) => (typeof v === 'bigint' ? String(v) : v)) ||
          charged !== expectedCharge
        ) {
          mismatches.push(
            `${at}: ${JSON.stringify({ actual, expected, charged, expectedCharge }, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`,
          );
        }
        checked.push({
          kind: ethereum ? `ethereum type ${ethereum.type}` : call ? 'call' : 'create',
          delegated: contracts.get(contract)?.runtime[0] === 0xef,
          authorities: authorities.length,
          skipped: (ethereum?.authorizationList?.length ?? 0) - authorities.length,
          selector: hex(data.subarray(0, 4)),
          sender,
          // msg.sender shows in a log (an ERC-20 Transfer's `from`) the record holds.
          senderLogged: expected.logs.some((log: string) => log.split(':').includes(sender.padStart(64, '0'))),
          status,
          charged: charged === replayed.evmGas && charged > limitFloor,
        });
        // The state the next transaction starts from is what this record says, not what the replay did.
        if (create && status === SUCCESS) {
          const bytecode = own.find((s) => s.bytecode)?.bytecode;
          contracts.set(contract, { runtime: new Uint8Array(bytecode?.runtime_bytecode ?? []), storage: new Map() });
        }
        for (const write of recordedWrites) {
          const [address = '', rest = ''] = write.split('/');
          const [slot = '', value = ''] = rest.split('=');
          const storage = contracts.get(address)?.storage;
          if (value === '') storage?.delete(slot);
          else storage?.set(slot, value);
        }
      }
    }
  }, 300_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('covers a few hundred transactions of every contract family, from both kinds of sender', () => {
    expect(checked.length).toBeGreaterThanOrEqual(200);
    expect(new Set(checked.filter((c) => c.kind === 'create').map((c) => c.selector)).size).toBeGreaterThanOrEqual(1);
    expect(checked.filter((c) => c.kind === 'create').length).toBeGreaterThanOrEqual(4);
    const selectors = new Set(checked.filter((c) => c.kind === 'call').map((c) => c.selector));
    expect(selectors.size).toBe(4);
    for (const type of [0, 1, 2, 4]) {
      expect(checked.filter((c) => c.kind === `ethereum type ${type}`).length, `type ${type}`).toBeGreaterThan(5);
    }
    expect(checked.some((c) => c.status !== SUCCESS)).toBe(true);
    expect(checked.filter((c) => c.authorities > 0).length, 'applied authorizations').toBeGreaterThan(5);
    expect(checked.filter((c) => c.delegated && c.status === SUCCESS).length, 'delegated calls').toBeGreaterThan(5);
    expect(checked.some((c) => c.sender.startsWith('0'.repeat(24)))).toBe(true);
    const aliased = (c: (typeof checked)[number]) => !c.sender.startsWith('0'.repeat(24));
    expect(
      checked.some((c) => c.kind === 'call' && aliased(c) && c.senderLogged),
      'HAPI calls as the alias',
    ).toBe(true);
    expect(
      checked.filter((c) => c.kind === 'ethereum type 4' && c.skipped > 0).length,
      'type 4 with skipped authorizations',
    ).toBeGreaterThan(2);
    expect(checked.some((c) => c.charged)).toBe(true);
    expect(checked.some((c) => !c.charged)).toBe(true);
  });

  it('finds the recorded status, output, logs, storage writes and EVM gas, and gasUsed = max(EVM gas, 80% of the limit)', () => {
    expect(mismatches.slice(0, 3)).toEqual([]);
  });
});

/**
 * The EVM on ledger state: `openSession` gives one request's view of the ledger at one block, and each `run`
 * executes one synthetic transaction on it from a clean write overlay. Reads are cached for the session
 * (entities, balances, storage, block hashes) and bytecode for the isolate. See docs/adr/0015-evm-on-ledger-state.md.
 */
import { type Common, createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, paramsEVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { bytesFromHex, hexOfBytes } from '../../db/bytea.ts';
import { maxEntityId } from '../../db/queries/evm-entities.ts';
import { blockHashPrefix } from '../../db/queries/evm-state.ts';
import { decodeEntityId, encodeEntityId } from '../params/entity-id.ts';
import { longZeroAddress } from './addresses.ts';
import { bytecodeCacheOf } from './bytecode-cache.ts';
import { entityCode, redirectAccountCalls } from './entity-code.ts';
import { evmVersionAt, hardforkOf } from './evm-version.ts';
import { execute } from './execute.ts';
import { hederaOpcodes } from './hedera-opcodes.ts';
import { SessionLedger } from './ledger-reader.ts';
import { LedgerState } from './ledger-state.ts';
import { resolvePayer } from './payer.ts';
import { SlotReader } from './slot-reader.ts';
import { systemContracts } from './system/index.ts';
import type { CallOutcome, CallTransaction, EvmSession, EvmSessionOptions } from './types.ts';

/** The consensus node's limit on a contract call's data (`jumboTransactions.ethereumMaxCallDataSize`). */
export const MAX_CALL_DATA_BYTES = 131_072;
/** New entities of a simulated create are numbered after the highest id plus this gap, as the reference does. */
const NEW_ENTITY_GAP = 1000n;
/** The funding account 0.0.98 is the block's COINBASE. */
const FUNDING_ACCOUNT_NUM = 98n;
/**
 * EIP-7702 on top of Cancun: an account with a `delegation_address` runs its delegate's code. Code delegation
 * came to Hedera long after the EVM versions older than Cancun, so their blocks have no delegations.
 */
const CODE_DELEGATION_EIP = 7702;

const rejected = (status: string): CallOutcome => ({
  ok: false,
  status,
  output: new Uint8Array(),
  gasUsed: 0n,
  childStatuses: [],
});

const isZero = (bytes: Uint8Array) => bytes.every((byte) => byte === 0);

export function openSession(options: EvmSessionOptions): EvmSession {
  const { db, block, settings } = options;
  const hardfork = hardforkOf(evmVersionAt(block, settings));
  const common: Common = createCustomCommon({ chainId: Number(settings.chainId) }, Mainnet, {
    hardfork,
    eips: hardfork === Hardfork.Cancun ? [CODE_DELEGATION_EIP] : [],
    params: paramsEVM,
  });
  const ledger = new SessionLedger(db, block, settings);
  const slots = new SlotReader(db, block);
  const bytecodes = bytecodeCacheOf(db);
  const id = (num: bigint) => encodeEntityId({ shard: settings.shard, realm: settings.realm, num });
  const coinbase = longZeroAddress(id(FUNDING_ACCOUNT_NUM));
  const hash = bytesFromHex(block.hash.slice(0, 64));
  const evmBlock = {
    header: {
      number: block.number,
      coinbase: new Address(coinbase),
      timestamp: block.consensusStart / 1_000_000_000n,
      difficulty: 0n,
      prevRandao: hash,
      gasLimit: settings.maxGasLimit,
      baseFeePerGas: 0n,
      getBlobGasPrice: () => 0n,
    },
  };
  const blockHashes = new Map<bigint, Promise<bigint | undefined>>();
  const blockHash = (number: bigint): Promise<bigint | undefined> => {
    let found = blockHashes.get(number);
    if (!found) {
      found =
        number === block.number
          ? Promise.resolve(BigInt(`0x${block.hash.slice(0, 64)}`))
          : blockHashPrefix(db, number).then((prefix) => (prefix ? BigInt(`0x${prefix}`) : undefined));
      blockHashes.set(number, found);
    }
    return found;
  };
  const codeOf = entityCode(db, bytecodes, common.isActivatedEIP(CODE_DELEGATION_EIP));
  let createAddress: Promise<Uint8Array> | undefined;
  const newContractAddress = () => {
    createAddress ??= maxEntityId(db).then((max) => {
      const num = (decodeEntityId(max)?.num ?? 0n) + NEW_ENTITY_GAP + 1n;
      return longZeroAddress(id(num));
    });
    return createAddress;
  };

  const state = new LedgerState({ common, ledger, slots, codeOf });
  let evm: Promise<{ machine: EVM; takeError(): unknown }> | undefined;
  const evmOf = () => {
    evm ??= createEVM({
      common,
      stateManager: state,
      customOpcodes: hederaOpcodes(common, { state: () => state, blockNumber: block.number, blockHash }),
      customPrecompiles: systemContracts(ledger),
    }).then((machine) => ({ machine, ...redirectAccountCalls(machine, () => state) }));
    return evm;
  };

  const runOnce = async (transaction: CallTransaction): Promise<CallOutcome> => {
    if (transaction.value < 0n) return rejected('CONTRACT_NEGATIVE_VALUE');
    if (transaction.data.length > MAX_CALL_DATA_BYTES) return rejected('TRANSACTION_OVERSIZE');
    const payer = await resolvePayer(ledger, transaction);
    if (!payer.ok) return rejected(payer.status);
    const { machine, takeError } = await evmOf();
    state.reset(payer.validatedId);
    machine.journal.cleanJournal();
    machine.transientStorage.clear();
    const create = !transaction.to || isZero(transaction.to);
    let to: Uint8Array;
    if (create || !transaction.to) {
      to = await newContractAddress();
    } else {
      to = transaction.to;
      const target = await ledger.entityByAddress(to);
      const precompile = machine.precompiles.has(`0x${hexOfBytes(to)}`);
      if ((!target || target.deleted) && transaction.data.length > 0 && !precompile) {
        return rejected('INVALID_CONTRACT_ID');
      }
    }
    const outcome = await execute({
      evm: machine,
      state,
      sender: payer.sender,
      to,
      create,
      data: transaction.data,
      value: transaction.value,
      gas: transaction.gas,
      coinbase,
      block: evmBlock,
    });
    const failure = takeError();
    if (failure) throw failure;
    return outcome;
  };

  // Runs share the session's state and EVM, so they take turns.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(transaction: CallTransaction): Promise<CallOutcome> {
      const outcome = queue.then(() => runOnce(transaction));
      queue = outcome.catch(() => undefined);
      return outcome;
    },
  };
}

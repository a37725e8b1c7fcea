/**
 * The EVM on ledger state: `openSession` gives one request's view of the ledger at one block, and each `run`
 * executes one synthetic transaction on it from a clean write overlay, on an EVM borrowed from the isolate's pool.
 * Reads are cached for the session (entities, balances, storage, block hashes), latest ones briefly for the
 * isolate, bytecode for the isolate. See docs/adr/0015-evm-on-ledger-state.md.
 */
import type { InterpreterStep, PrecompileFunc } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { bytesFromHex, hexOfBytes } from '../../db/bytea.ts';
import { blockHashPrefix } from '../../db/queries/evm-state.ts';
import { encodeEntityId } from '../params/entity-id.ts';
import { longZeroAddress, systemNumOf } from './addresses.ts';
import { evmCachesOf } from './caches.ts';
import { entityCode } from './entity-code.ts';
import { evmVersionAt, hardforkOf } from './evm-version.ts';
import { execute } from './execute.ts';
import { SessionLedger } from './ledger-reader.ts';
import type { LedgerState } from './ledger-state.ts';
import { CODE_DELEGATION_EIP, commonOf, type RunBinding, withMachine } from './machine-pool.ts';
import { firstNewEntityNumber } from './next-entity-id.ts';
import { resolvePayer } from './payer.ts';
import { SlotReader } from './slot-reader.ts';
import { systemContracts } from './system/index.ts';
import type { CallOutcome, CallTransaction, EvmSession, EvmSessionOptions, StepObserver } from './types.ts';

/** The consensus node's limit on a contract call's data (`jumboTransactions.ethereumMaxCallDataSize`). */
export const MAX_CALL_DATA_BYTES = 131_072;
/** The funding account 0.0.98 is the block's COINBASE. */
const FUNDING_ACCOUNT_NUM = 98n;

const rejected = (status: string): CallOutcome => ({
  ok: false,
  status,
  output: new Uint8Array(),
  gasUsed: 0n,
  childStatuses: [],
});

const isZero = (bytes: Uint8Array) => bytes.every((byte) => byte === 0);

/** The highest address of Ethereum's own precompiles (0x01-0x0a: ecrecover to the KZG point evaluation). */
const LAST_STANDARD_PRECOMPILE = 0x0an;
const isStandardPrecompile = (address: Uint8Array): boolean => {
  const num = systemNumOf(address);
  return num !== undefined && num >= 1n && num <= LAST_STANDARD_PRECOMPILE;
};

export function openSession(options: EvmSessionOptions): EvmSession {
  const { db, block, settings } = options;
  const caches = options.caches ?? evmCachesOf(db);
  const common = commonOf(hardforkOf(evmVersionAt(block, settings)), settings.chainId);
  const ledger = new SessionLedger(db, block, settings, caches.latest);
  const id = (num: bigint) => encodeEntityId({ shard: settings.shard, realm: settings.realm, num });
  const coinbase = longZeroAddress(id(FUNDING_ACCOUNT_NUM));
  const evmBlock = {
    header: {
      number: block.number,
      coinbase: new Address(coinbase),
      timestamp: block.consensusStart / 1_000_000_000n,
      difficulty: 0n,
      prevRandao: bytesFromHex(block.hash.slice(0, 64)),
      gasLimit: settings.maxGasLimit,
      baseFeePerGas: 0n,
      getBlobGasPrice: () => 0n,
    },
  };
  const blockHashes = new Map<bigint, Promise<bigint | undefined>>();
  let firstEntityNumber: Promise<bigint> | undefined;
  const binding: RunBinding = {
    ledger,
    slots: new SlotReader(db, block, caches.latest),
    codeOf: entityCode(db, caches.bytecode, common.isActivatedEIP(CODE_DELEGATION_EIP)),
    blockNumber: block.number,
    blockHash(number) {
      let found = blockHashes.get(number);
      if (!found) {
        found =
          number === block.number
            ? Promise.resolve(BigInt(`0x${block.hash.slice(0, 64)}`))
            : blockHashPrefix(db, number).then((prefix) => (prefix ? BigInt(`0x${prefix}`) : undefined));
        blockHashes.set(number, found);
      }
      return found;
    },
    firstEntityNumber() {
      firstEntityNumber ??= firstNewEntityNumber(db, block, settings);
      return firstEntityNumber;
    },
    entityAddress: (num) => longZeroAddress(id(num)),
    systemContracts: new Map<string, PrecompileFunc>(
      systemContracts(ledger).flatMap((precompile) =>
        'function' in precompile ? [[precompile.address.toString(), precompile.function] as const] : [],
      ),
    ),
  };

  /** A top-level create takes the first new entity number, also where the ledger gives its address (a replay). */
  const createdAddress = async (state: LedgerState, given: Uint8Array | undefined): Promise<Uint8Array> => {
    const num = (await state.numbers()).use();
    return given ?? binding.entityAddress(num);
  };

  const runOnce = async (transaction: CallTransaction, observer?: StepObserver): Promise<CallOutcome> => {
    if (transaction.value < 0n) return rejected('CONTRACT_NEGATIVE_VALUE');
    if (transaction.data.length > MAX_CALL_DATA_BYTES) return rejected('TRANSACTION_OVERSIZE');
    const target = transaction.to && !isZero(transaction.to) ? transaction.to : undefined;
    // Independent reads, made together: each is a round trip to the database. A create numbers its contract.
    const [payer, targetEntity] = await Promise.all([
      resolvePayer(ledger, transaction),
      target && ledger.entityByAddress(target),
      target ?? binding.firstEntityNumber(),
    ]);
    if (!payer.ok) return rejected(payer.status);
    const missing = target && (!targetEntity || targetEntity.deleted);
    const isSystemContract = target && binding.systemContracts.has(`0x${hexOfBytes(target)}`);
    if (missing && transaction.data.length > 0 && !isSystemContract && !isStandardPrecompile(target)) {
      return rejected('INVALID_CONTRACT_ID');
    }
    return withMachine(common, async (machine) => {
      machine.bind(binding, payer.validatedId);
      const to = target ?? (await createdAddress(machine.state, transaction.createAddress));
      // Resolving with the observer's promise makes the EVM wait for it, and fail with it when it rejects.
      const listener = (step: InterpreterStep, resolve?: (result?: unknown) => void) => resolve?.(observer?.(step));
      if (observer) machine.evm.events.on('step', listener);
      const outcome = await execute({
        evm: machine.evm,
        state: machine.state,
        sender: payer.sender,
        to,
        create: !target,
        data: transaction.data,
        value: transaction.value,
        gas: transaction.gas,
        coinbase,
        block: evmBlock,
        ...(transaction.authorizationCount ? { authorizationCount: transaction.authorizationCount } : {}),
        ...(transaction.delegations ? { delegations: transaction.delegations } : {}),
      }).finally(() => machine.evm.events.off('step', listener));
      const failure = machine.takeError();
      if (failure) throw failure;
      return outcome;
    });
  };

  // Runs of one session take turns: an estimate's runs come one after another anyway.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(transaction: CallTransaction, observer?: StepObserver): Promise<CallOutcome> {
      const outcome = queue.then(() => runOnce(transaction, observer));
      queue = outcome.catch(() => undefined);
      return outcome;
    },
  };
}

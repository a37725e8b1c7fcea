/**
 * The seam between POST /api/v1/contracts/call (validation, throttles, estimation: `workers/routes/contracts/call/`)
 * and the EVM that runs a call on ledger state (`workers/evm/`), and between the EVM and Hedera's system contracts
 * (`workers/evm/system/`). Values are bigint inside, addresses 20 raw bytes.
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import type { Database } from '../../db/client.ts';
import type { EvmCaches } from './caches.ts';
import type { LatestCaches } from './latest-cache.ts';

/** The record file a call runs on (`record_file` row), resolved from the request's `block`. */
export interface BlockContext {
  /** `record_file.index`: the EVM's NUMBER. */
  readonly number: bigint;
  /** `consensus_start` in ns: TIMESTAMP is its seconds. */
  readonly consensusStart: bigint;
  /** `consensus_end` in ns: the state timestamp of a historical call. */
  readonly consensusEnd: bigint;
  /** `record_file.hash`, 96 hex digits without 0x (older files may have 64). */
  readonly hash: string;
  /** False only for the `latest` tag (and its aliases): the current tables are read instead of `*_history`. */
  readonly historical: boolean;
}

/** The web3 settings the EVM reads (`hiero.mirror.web3.evm.*`, defaults of the reference). */
export interface EvmSettings {
  /** 295 mainnet, 296 testnet (the default), 297 previewnet, 298 other. */
  readonly chainId: bigint;
  /** `network`: MAINNET, TESTNET, PREVIEWNET or OTHER; picks the EVM version map by block. */
  readonly network: 'MAINNET' | 'TESTNET' | 'PREVIEWNET' | 'OTHER';
  /** 15,000,000. */
  readonly maxGasLimit: bigint;
  /** false: balances below the minimum are shown as the minimum, unless this is on and the call pays (value/gasPrice). */
  readonly validatePayerBalance: boolean;
  readonly shard: bigint;
  readonly realm: bigint;
}

/** One synthetic ContractCall (`to` set) or ContractCreate (`to` undefined, `data` the init code). */
export interface CallTransaction {
  /** The request's `from`; undefined: the treasury 0.0.2 is the payer and sender. */
  readonly from: Uint8Array | undefined;
  readonly to: Uint8Array | undefined;
  readonly data: Uint8Array;
  /** Tinybars. */
  readonly value: bigint;
  readonly gas: bigint;
  /** Not fed to the EVM; with `value` it decides whether the payer's balance is checked. */
  readonly gasPrice: bigint;
  /**
   * The address a create's contract takes: a replayed create takes the one the ledger gave it; otherwise a new
   * entity's long-zero address.
   */
  readonly createAddress?: Uint8Array;
  /** EIP-7702: how many authorizations a type 4 transaction carries (each costs intrinsic gas, applied or not). */
  readonly authorizationCount?: number;
  /** EIP-7702: the delegations its valid authorizations make, applied in order before the call (a revert keeps them). */
  readonly delegations?: readonly CodeDelegation[];
}

/**
 * An authority's account set to run `delegate`'s code (the zero address: cleared). The authority is an account of
 * the ledger, so part of its authorization's gas is refunded.
 */
export interface CodeDelegation {
  readonly authority: Uint8Array;
  readonly delegate: Uint8Array;
}

/**
 * Sees every EVM step of a run, in order (the opcode tracer); the run waits for the promise, and a rejected one
 * ends the run with that error.
 */
export type StepObserver = (step: InterpreterStep) => Promise<void> | void;

export type CallOutcome =
  | {
      readonly ok: true;
      /** Return data; for a create, the runtime code the constructor returned. */
      readonly output: Uint8Array;
      /** Gas including the intrinsic gas, without Hedera's 80% floor. */
      readonly gasUsed: bigint;
    }
  | {
      readonly ok: false;
      /** The HAPI status name the reference answers with: CONTRACT_REVERT_EXECUTED, INSUFFICIENT_GAS, … */
      readonly status: string;
      /** Revert data (`0x` when none). */
      readonly output: Uint8Array;
      readonly gasUsed: bigint;
      /** Statuses of failed child records, each one more message in the error body. */
      readonly childStatuses: readonly string[];
    };

/**
 * One request's view of the ledger at one block. Reads are cached for the session, so the runs of an estimate do
 * not repeat them; each `run` starts from a clean write cache.
 */
export interface EvmSession {
  run(transaction: CallTransaction, observer?: StepObserver): Promise<CallOutcome>;
}

export interface EvmSessionOptions {
  readonly db: Database;
  readonly block: BlockContext;
  readonly settings: EvmSettings;
  /**
   * Bytecode and latest reads shared with the other sessions of the isolate (`createEvmCaches()`, made once);
   * without it, those of `db` (the right choice unless `db` is a per-request wrapper).
   */
  readonly caches?: EvmCaches;
}

/** Thrown for a request the reference rejects with a status other than 400 (404 entity, 501 unsupported). */
export class EvmRequestError extends Error {
  readonly httpStatus: 404 | 501 | 503;
  constructor(httpStatus: 404 | 501 | 503, message: string) {
    super(message);
    this.httpStatus = httpStatus;
  }
}

/** An entity as the EVM sees it at the session's block (`entity`, or `entity_history` for a historical block). */
export interface EvmEntity {
  /** Encoded entity id (shard, realm, num packed as in the schema). */
  readonly id: bigint;
  readonly type: 'ACCOUNT' | 'CONTRACT' | 'TOKEN' | 'TOPIC' | 'FILE' | 'SCHEDULE';
  /** The 20-byte EVM address (`evm_address`, or a 20-byte `alias`), if any: the entity's canonical address then. */
  readonly evmAddress: Uint8Array | undefined;
  /** `alias` as stored (a protobuf Key for key aliases), if any. */
  readonly alias: Uint8Array | undefined;
  /** Protobuf `Key` bytes, if any. */
  readonly key: Uint8Array | undefined;
  readonly deleted: boolean;
  /** Tinybars at the block, as stored (no minimum applied). */
  readonly balance: bigint;
  readonly ethereumNonce: bigint;
  readonly createdTimestamp: bigint | undefined;
  readonly expirationTimestamp: bigint | undefined;
  readonly autoRenewPeriod: bigint | undefined;
  readonly autoRenewAccountId: bigint | undefined;
  readonly maxAutomaticTokenAssociations: number;
  readonly receiverSigRequired: boolean;
  readonly memo: string;
  /** EIP-7702 delegate (20 bytes), if any. */
  readonly delegationAddress: Uint8Array | undefined;
}

/** Entity reads at the session's block, cached for the session; shared by the EVM state and the system contracts. */
export interface LedgerReader {
  readonly block: BlockContext;
  readonly settings: EvmSettings;
  readonly db: Database;
  /** Latest reads shared with the isolate's other sessions (only read when the block is not historical). */
  readonly latest: LatestCaches;
  /** By long-zero address (shard/realm/num) or by EVM address/alias; undefined when none existed at the block. */
  entityByAddress(address: Uint8Array): Promise<EvmEntity | undefined>;
  entityById(id: bigint): Promise<EvmEntity | undefined>;
  /** The entity's canonical address: its EVM address when it has one, else its long-zero address. */
  canonicalAddress(entity: EvmEntity): Uint8Array;
}

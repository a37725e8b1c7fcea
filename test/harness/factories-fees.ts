import { readFileSync } from 'node:fs';
import { proto } from '@hiero-ledger/proto';
import type pg from 'pg';
import protobuf from 'protobufjs';
import { insertFileData } from './factories-network.ts';
import type { TestDatabase } from './test-database.ts';
import type { TestWorker } from './test-worker.ts';
import { registerWorkerSuite } from './worker-suite.ts';

/**
 * Bodies and schedules for `POST /api/v1/network/fees`: HAPI transactions as a wallet sends them (built with the
 * SDK's protobuf classes), and the consensus node's simple-fees schedule in its JSON form, encoded as the
 * `FeeSchedule` protobuf system file 0.0.113 holds.
 */

/** The schedule's message, per fee_schedule.proto (HIP-1261); functionality names become their HAPI numbers. */
const FEE_SCHEDULE_PROTO = `
syntax = "proto3";
package fees;
message FeeSchedule {
  NodeFee node = 1; NetworkFee network = 2; UnreadableTransactionFee unreadable = 3;
  repeated ExtraFeeDefinition extras = 4; repeated ServiceFeeSchedule services = 5;
}
enum Extra {
  SIGNATURES = 0; KEYS = 1; NFT_SERIALS = 2; ACCOUNTS = 3; TOKEN_TYPES = 4; GAS = 5; ALLOWANCES = 6; AIRDROPS = 7;
  HOOK_UPDATES = 8; TOKEN_TRANSFER_BASE = 9; TOKEN_TRANSFER_BASE_CUSTOM_FEES = 10; HOOK_EXECUTION = 11;
  TOKEN_CREATE_WITH_CUSTOM_FEE = 12; TOKEN_MINT_NFT = 13; CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE = 14;
  CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE = 15; SCHEDULE_CREATE_CONTRACT_CALL_BASE = 16; TOKEN_ASSOCIATE = 17;
  HOOK_SLOT_UPDATE = 18; TOKEN_MINT_NFT_BASE = 19; NFT_UPDATE = 20; RECORDS = 21; STATE_BYTES = 22;
  PROCESSING_BYTES = 23; CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES = 24;
  CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES = 25;
}
message ExtraFeeDefinition { Extra name = 1; uint64 fee = 2; }
message NodeFee { uint64 base_fee = 1; repeated ExtraFeeReference extras = 2; }
message NetworkFee { uint32 multiplier = 1; }
message ServiceFeeSchedule { string name = 1; repeated ServiceFeeDefinition schedule = 2; }
message ServiceFeeDefinition {
  int32 name = 1; uint64 base_fee = 2; repeated ExtraFeeReference extras = 3; bool free = 4;
  VariableRateDefinition high_volume_rates = 5; bool node_network_fee_exempt = 6;
}
message ExtraFeeReference { Extra name = 1; uint32 included_count = 2; }
message UnreadableTransactionFee { uint64 fee = 1; }
message VariableRateDefinition { uint32 max_multiplier = 2; PricingCurve pricing_curve = 3; }
message PricingCurve { oneof curve_type { PiecewiseLinearCurve piecewise_linear = 1; } }
message PiecewiseLinearCurve { repeated PiecewiseLinearPoint points = 1; }
message PiecewiseLinearPoint { uint32 utilization_basis_points = 1; uint32 multiplier = 2; }
`;

const FeeSchedule = protobuf.parse(FEE_SCHEDULE_PROTO).root.lookupType('fees.FeeSchedule');

export interface ScheduleEntryJson {
  name: string;
  baseFee: number;
  extras: { name: string; includedCount: number }[];
  highVolumeRates?: {
    maxMultiplier: number;
    pricingCurve?: { piecewiseLinear?: { points: { utilizationBasisPoints: number; multiplier: number }[] } };
  };
  nodeNetworkFeeExempt?: boolean;
}

export interface ScheduleJson {
  node: { baseFee: number; extras: { name: string; includedCount: number }[] };
  network: { multiplier: number };
  extras: { name: string; fee: number }[];
  services: { name: string; schedule: ScheduleEntryJson[] }[];
}

/** The genesis schedule the project ships (the consensus node's), read as the tests' independent copy of it. */
export function genesisScheduleJson(): ScheduleJson {
  const url = new URL('../../workers/routes/network/fees-estimate/genesis-simple-fees.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as ScheduleJson;
}

/** A schedule in JSON form as the bytes of 0.0.113. */
function simpleFeeScheduleBytes(json: ScheduleJson): Uint8Array {
  const functionalities = proto.HederaFunctionality as unknown as Record<string, number>;
  const withNumbers = {
    ...json,
    services: json.services.map((service) => ({
      ...service,
      schedule: service.schedule.map((entry) => {
        const number = functionalities[entry.name];
        if (number === undefined) throw new Error(`unknown functionality ${entry.name}`);
        return { ...entry, name: number };
      }),
    })),
  };
  return FeeSchedule.encode(FeeSchedule.fromObject(withNumbers)).finish();
}

/** A signature pair as wallets send it: the full 32-byte public key as prefix, a 64-byte ED25519 signature. */
export function ed25519SigPair(seed: number): proto.ISignaturePair {
  return { pubKeyPrefix: new Uint8Array(32).fill(seed), ed25519: new Uint8Array(64).fill(seed + 1) };
}

/**
 * A `TransactionBody` (or part of one) in protobufjs's plain object form. protobufjs takes plain numbers for int64
 * fields; the SDK's typings ask for Long, so bodies are typed loosely here.
 */
export type BodyInput = Record<string, unknown>;

/** An ED25519 key (32 bytes), distinct per seed. */
export const ed25519Key = (seed: number): BodyInput => ({ ed25519: new Uint8Array(32).fill(seed) });

/** A compressed ECDSA secp256k1 key (33 bytes). */
export const ecdsaKey = (seed: number): BodyInput => ({
  ECDSASecp256k1: Uint8Array.from([0x02, ...new Uint8Array(32).fill(seed)]),
});

/** The header fields every wallet sets: payer, valid start, node, fee, duration. */
function bodyHeader(): BodyInput {
  return {
    transactionID: {
      accountID: { shardNum: 0, realmNum: 0, accountNum: 1001 },
      transactionValidStart: { seconds: 1_760_000_000, nanos: 123_456_789 },
    },
    nodeAccountID: { shardNum: 0, realmNum: 0, accountNum: 3 },
    transactionFee: 200_000_000,
    transactionValidDuration: { seconds: 120 },
  };
}

export interface TransactionOptions {
  /** Signature pairs in the signature map. */
  signatures?: number;
  /** `Transaction.bodyBytes` and `Transaction.sigMap` instead of `signedTransactionBytes`. */
  legacy?: boolean;
}

/** A signed `Transaction` around `body` (the header added unless the body has its own). */
export function transactionBytes(body: BodyInput, options: TransactionOptions = {}): Uint8Array {
  const bodyBytes = proto.TransactionBody.encode({ ...bodyHeader(), ...body } as proto.ITransactionBody).finish();
  const sigMap = { sigPair: Array.from({ length: options.signatures ?? 1 }, (_, i) => ed25519SigPair(i * 2 + 1)) };
  if (options.legacy) return proto.Transaction.encode({ bodyBytes, sigMap }).finish();
  const signedTransactionBytes = proto.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
  return proto.Transaction.encode({ signedTransactionBytes }).finish();
}

/** The design note's first vector: a memo and an empty transfer, no header, in the modern or the legacy form. */
export function bareTransferBytes(signatures = 0, legacy = false): Uint8Array {
  const bodyBytes = proto.TransactionBody.encode({ memo: 'test', cryptoTransfer: {} }).finish();
  const sigMap = signatures > 0 ? { sigPair: Array.from({ length: signatures }, (_, i) => ed25519SigPair(i)) } : null;
  if (legacy) return proto.Transaction.encode({ bodyBytes, sigMap }).finish();
  const signedTransactionBytes = proto.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
  return proto.Transaction.encode({ signedTransactionBytes }).finish();
}

/** A schedule written to 0.0.113 at `at`. */
export async function insertSimpleFeeSchedule(sql: pg.Client, at: bigint, schedule: ScheduleJson): Promise<void> {
  await insertFileData(sql, { consensus_timestamp: at, entity_id: 113n, file_data: simpleFeeScheduleBytes(schedule) });
}

/** What `postFees` sends besides the body: a query string (`?mode=STATE`), a content type (`''` for none). */
export interface PostFeesOptions {
  query?: string;
  contentType?: string;
}

/** An answer of the estimate route. */
export interface FeesAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies of every shape; assertions check them.
  body: any;
}

/** POSTs a body to the estimate route; the answer's JSON parsed. */
async function postFees(
  baseUrl: string,
  body: Uint8Array | string | undefined,
  options: PostFeesOptions = {},
): Promise<FeesAnswer> {
  const headers: Record<string, string> = {};
  if (options.contentType !== '') headers['content-type'] = options.contentType ?? 'application/protobuf';
  const res = await fetch(`${baseUrl}/api/v1/network/fees${options.query ?? ''}`, {
    method: 'POST',
    headers,
    body: body as RequestInit['body'],
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

/** When a fee suite's first schedule is written to 0.0.113; the versions a test publishes come after it. */
export const FIRST_SCHEDULE_AT = 1_700_000_000_000_000_000n;

/**
 * Registers a Worker suite for the estimate route (see `registerWorkerSuite`) whose 0.0.113 holds `schedule` from
 * FIRST_SCHEDULE_AT on (none without it), with `post` sending a body to the route of that suite's Worker.
 */
export function registerFeeSuite(schedule?: ScheduleJson): {
  db: TestDatabase;
  worker: TestWorker;
  post: (body: Uint8Array | string | undefined, options?: PostFeesOptions) => Promise<FeesAnswer>;
} {
  const suite = registerWorkerSuite(
    schedule ? { seed: (db) => insertSimpleFeeSchedule(db.sql, FIRST_SCHEDULE_AT, schedule) } : {},
  );
  return { ...suite, post: (body, options) => postFees(suite.worker.baseUrl, body, options) };
}

/** The body of a 400 the estimate route answers, as the reference writes it. */
export const badRequest = (detail: string) => ({ _status: { messages: [{ message: 'Bad Request', detail }] } });

/** A body and what the schedule charges for it. */
export interface FeeCase {
  /** The schedule entry (HederaFunctionality name) the body is priced by. */
  functionality: string;
  body: BodyInput;
  signatures?: number;
  /** Units of each service extra the body holds, in the order the calculator charges them. */
  extras?: Record<string, number>;
  /** The entry whose base fee and extras apply, when not the functionality's own. */
  pricedAs?: string;
}

/**
 * The fee of a case under `schedule`, worked out from its numbers: node + network + service; the node pays for
 * signatures and bytes beyond its quota.
 */
export function expectedFee(schedule: ScheduleJson, test: FeeCase, bytes: number) {
  const entries = new Map(schedule.services.flatMap((service) => service.schedule.map((entry) => [entry.name, entry])));
  const price = (name: string) => BigInt(schedule.extras.find((extra) => extra.name === name)?.fee ?? Number.NaN);
  const entry = entries.get(test.pricedAs ?? test.functionality);
  if (!entry) throw new Error(`no genesis entry for ${test.functionality}`);
  const exempt = entries.get(test.functionality)?.nodeNetworkFeeExempt === true;
  const nodeUse: Record<string, number> = { SIGNATURES: test.signatures ?? 1, PROCESSING_BYTES: bytes };
  let node = exempt ? 0n : BigInt(schedule.node.baseFee);
  if (!exempt) {
    for (const extra of schedule.node.extras) {
      node += price(extra.name) * BigInt(Math.max(0, (nodeUse[extra.name] ?? 0) - extra.includedCount));
    }
  }
  const charged = Object.entries(test.extras ?? {}).flatMap(([name, count]) => {
    const included = entry.extras.find((extra) => extra.name === name)?.includedCount;
    if (included === undefined) throw new Error(`${entry.name} has no extra ${name}`);
    return count > included ? [{ name, count, charged: count - included }] : [];
  });
  const service = charged.reduce(
    (sum, extra) => sum + price(extra.name) * BigInt(extra.charged),
    BigInt(entry.baseFee),
  );
  const multiplier = exempt ? 0n : BigInt(schedule.network.multiplier);
  return { total: node * (1n + multiplier) + service, serviceBase: entry.baseFee, charged };
}

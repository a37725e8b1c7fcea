import type { Decoded, MessageDef } from '../../../format/protobuf-strict.ts';
import { HEDERA_FUNCTIONALITY } from './hedera-functionality.ts';

/**
 * A simple-fees schedule (HIP-1261, `org.hiero.hapi.support.fees.FeeSchedule`), the prices a fee estimate applies:
 * the node's base fee and extras, the network multiplier, one price per extra, and per transaction type a base fee
 * and the extras it charges beyond an included count. Amounts are tinycents.
 */
export interface SimpleFeeSchedule {
  nodeBaseFee: bigint;
  nodeExtras: readonly ExtraReference[];
  networkMultiplier: number;
  /** Price of one unit of each extra, by name. */
  extraFees: ReadonlyMap<string, bigint>;
  /** By `HederaFunctionality` number; the first entry for a number wins, as the consensus node looks it up. */
  services: ReadonlyMap<number, ServiceFee>;
}

export interface ExtraReference {
  name: string;
  included: bigint;
}

export interface ServiceFee {
  baseFee: bigint;
  extras: readonly ExtraReference[];
  /** The transaction pays no node or network fee (ContractCall: its gas pays for it). */
  nodeNetworkFeeExempt: boolean;
  highVolumeRates: HighVolumeRates | undefined;
}

/** HIP-1313 rates: multipliers scaled by 1000 (1000 = 1x), utilisation in basis points. */
export interface HighVolumeRates {
  maxMultiplier: number;
  points: readonly { utilization: number; multiplier: number }[];
}

/** The `Extra` enum of fee_schedule.proto: names by number. */
const EXTRA_NAMES: readonly string[] = [
  'SIGNATURES',
  'KEYS',
  'NFT_SERIALS',
  'ACCOUNTS',
  'TOKEN_TYPES',
  'GAS',
  'ALLOWANCES',
  'AIRDROPS',
  'HOOK_UPDATES',
  'TOKEN_TRANSFER_BASE',
  'TOKEN_TRANSFER_BASE_CUSTOM_FEES',
  'HOOK_EXECUTION',
  'TOKEN_CREATE_WITH_CUSTOM_FEE',
  'TOKEN_MINT_NFT',
  'CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE',
  'CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE',
  'SCHEDULE_CREATE_CONTRACT_CALL_BASE',
  'TOKEN_ASSOCIATE',
  'HOOK_SLOT_UPDATE',
  'TOKEN_MINT_NFT_BASE',
  'NFT_UPDATE',
  'RECORDS',
  'STATE_BYTES',
  'PROCESSING_BYTES',
  'CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES',
  'CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES',
];

const extraName = (number: number): string => EXTRA_NAMES[number] ?? `UNKNOWN_EXTRA_${number}`;

const EXTRA_REFERENCE: MessageDef = {
  1: { name: 'name', kind: 'enum' },
  2: { name: 'includedCount', kind: 'int64' },
};
const POINT: MessageDef = { 1: { name: 'utilization', kind: 'int64' }, 2: { name: 'multiplier', kind: 'int64' } };
const PIECEWISE_LINEAR: MessageDef = { 1: { name: 'points', kind: 'message', message: POINT, repeated: true } };
const PRICING_CURVE: MessageDef = { 1: { name: 'piecewiseLinear', kind: 'message', message: PIECEWISE_LINEAR } };
const VARIABLE_RATE: MessageDef = {
  2: { name: 'maxMultiplier', kind: 'int64' },
  3: { name: 'pricingCurve', kind: 'message', message: PRICING_CURVE },
};
const SERVICE_FEE: MessageDef = {
  1: { name: 'name', kind: 'enum' },
  2: { name: 'baseFee', kind: 'int64' },
  3: { name: 'extras', kind: 'message', message: EXTRA_REFERENCE, repeated: true },
  5: { name: 'highVolumeRates', kind: 'message', message: VARIABLE_RATE },
  6: { name: 'nodeNetworkFeeExempt', kind: 'int64' },
};

/** The file's message, as far as an estimate reads it (`unreadable` and the services' names are skipped). */
export const FEE_SCHEDULE_MESSAGE: MessageDef = {
  1: {
    name: 'node',
    kind: 'message',
    message: {
      1: { name: 'baseFee', kind: 'int64' },
      2: { name: 'extras', kind: 'message', message: EXTRA_REFERENCE, repeated: true },
    },
  },
  2: { name: 'network', kind: 'message', message: { 1: { name: 'multiplier', kind: 'int64' } } },
  4: {
    name: 'extras',
    kind: 'message',
    message: { 1: { name: 'name', kind: 'enum' }, 2: { name: 'fee', kind: 'int64' } },
    repeated: true,
  },
  5: {
    name: 'services',
    kind: 'message',
    message: { 2: { name: 'schedule', kind: 'message', message: SERVICE_FEE, repeated: true } },
    repeated: true,
  },
};

const list = (value: unknown): Decoded[] => (Array.isArray(value) ? (value as Decoded[]) : []);
const int = (value: unknown): bigint => (typeof value === 'bigint' ? value : BigInt((value as number) ?? 0));
const uint32 = (value: unknown): number => Number(BigInt.asUintN(32, int(value)));
const uint64 = (value: unknown): bigint => BigInt.asUintN(64, int(value));

const extraReferences = (value: unknown): ExtraReference[] =>
  list(value).map((ref) => ({ name: extraName(Number(ref.name ?? 0)), included: BigInt(uint32(ref.includedCount)) }));

/**
 * The schedule in a decoded 0.0.113, or undefined when it lacks what the consensus node requires of one (a node
 * fee, a network multiplier of at least 1, a service).
 */
export function scheduleFromFile(file: Decoded): SimpleFeeSchedule | undefined {
  const node = file.node as Decoded | undefined;
  const network = file.network as Decoded | undefined;
  const services = new Map<number, ServiceFee>();
  for (const service of list(file.services)) {
    for (const entry of list(service.schedule)) {
      const functionality = Number(entry.name ?? 0);
      if (services.has(functionality)) continue;
      const rates = entry.highVolumeRates as Decoded | undefined;
      const curve = (rates?.pricingCurve as Decoded | undefined)?.piecewiseLinear as Decoded | undefined;
      services.set(functionality, {
        baseFee: uint64(entry.baseFee),
        extras: extraReferences(entry.extras),
        nodeNetworkFeeExempt: int(entry.nodeNetworkFeeExempt) !== 0n,
        highVolumeRates: rates && {
          maxMultiplier: uint32(rates.maxMultiplier),
          points: list(curve?.points).map((p) => ({
            utilization: uint32(p.utilization),
            multiplier: uint32(p.multiplier),
          })),
        },
      });
    }
  }
  const multiplier = uint32(network?.multiplier);
  if (!node || !network || multiplier < 1 || services.size === 0) return undefined;
  const extraFees = new Map<string, bigint>();
  for (const extra of list(file.extras)) {
    const name = extraName(Number(extra.name ?? 0));
    if (!extraFees.has(name)) extraFees.set(name, uint64(extra.fee));
  }
  return {
    nodeBaseFee: uint64(node.baseFee),
    nodeExtras: extraReferences(node.extras),
    networkMultiplier: multiplier,
    extraFees,
    services,
  };
}

/** The consensus node's JSON form of a schedule (its genesis `simpleFeesSchedules.json`). */
export interface ScheduleJson {
  node: { baseFee: number; extras: readonly ExtraJson[] };
  network: { multiplier: number };
  extras: readonly { name: string; fee: number }[];
  services: readonly {
    name: string;
    schedule: readonly {
      name: string;
      baseFee: number;
      extras: readonly ExtraJson[];
      nodeNetworkFeeExempt?: boolean;
      highVolumeRates?: {
        maxMultiplier: number;
        pricingCurve?: {
          piecewiseLinear?: { points: readonly { utilizationBasisPoints: number; multiplier: number }[] };
        };
      };
    }[];
  }[];
}

interface ExtraJson {
  name: string;
  includedCount: number;
}

const fromJsonExtras = (extras: readonly ExtraJson[]): ExtraReference[] =>
  extras.map((extra) => ({ name: extra.name, included: BigInt(extra.includedCount) }));

/** The schedule in the consensus node's JSON form; entries naming an unknown functionality are left out. */
export function scheduleFromJson(json: ScheduleJson): SimpleFeeSchedule {
  const services = new Map<number, ServiceFee>();
  for (const service of json.services) {
    for (const entry of service.schedule) {
      const functionality = HEDERA_FUNCTIONALITY[entry.name];
      if (functionality === undefined || services.has(functionality)) continue;
      const rates = entry.highVolumeRates;
      services.set(functionality, {
        baseFee: BigInt(entry.baseFee),
        extras: fromJsonExtras(entry.extras),
        nodeNetworkFeeExempt: entry.nodeNetworkFeeExempt === true,
        highVolumeRates: rates && {
          maxMultiplier: rates.maxMultiplier,
          points: (rates.pricingCurve?.piecewiseLinear?.points ?? []).map((p) => ({
            utilization: p.utilizationBasisPoints,
            multiplier: p.multiplier,
          })),
        },
      });
    }
  }
  return {
    nodeBaseFee: BigInt(json.node.baseFee),
    nodeExtras: fromJsonExtras(json.node.extras),
    networkMultiplier: json.network.multiplier,
    extraFees: new Map(json.extras.map((extra) => [extra.name, BigInt(extra.fee)])),
    services,
  };
}

/**
 * Whether a key is active for a state-changing system contract call, as the consensus node's
 * ActiveContractVerificationStrategy decides it: a ContractID or DelegatableContractID key naming the contract that
 * called the system contract signs (only the latter when that contract runs delegated code); a key list needs all of its keys, a threshold key that many. An ED25519 or ECDSA
 * key signs only when it is the request sender's own key (the signature an Ethereum transaction from that sender
 * carries); top-level signatures of other accounts do not count inside the EVM.
 */
import { fields } from '../../format/protobuf-reader.ts';
import {
  contractAddress,
  KEY_CONTRACT_ID,
  KEY_DELEGATABLE_CONTRACT_ID,
  KEY_ECDSA_SECP256K1,
  KEY_ED25519,
  KEY_LIST,
  KEY_THRESHOLD,
} from './keys.ts';
import { keyActive, type Signatory } from './schedule-keys.ts';

export interface Signers {
  /** Addresses of the calling contract (long-zero and EVM address), when a contract called. */
  readonly contract: readonly Uint8Array[];
  /** The calling contract runs delegated code: only a DelegatableContractID key names it then. */
  readonly delegated: boolean;
  /** The request sender's key bytes (a protobuf Key), if it has one. */
  readonly originKey: Uint8Array | undefined;
  /** When a schedule executes: its signatories, which alone activate keys (the schedule's key verifier). */
  readonly signatories?: ReadonlySet<Signatory>;
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The primitive (ED25519 or ECDSA) key inside Key bytes, with its field number. */
function primitive(key: Uint8Array): { number: number; bytes: Uint8Array } | undefined {
  for (const field of fields(key)) {
    if ('bytes' in field && (field.number === KEY_ED25519 || field.number === KEY_ECDSA_SECP256K1)) return field;
  }
  return undefined;
}

function listSatisfied(list: Uint8Array, signers: Signers): number {
  let count = 0;
  for (const field of fields(list)) {
    if ('bytes' in field && field.number === 1 && keySatisfied(field.bytes, signers)) count++;
  }
  return count;
}

function listSize(list: Uint8Array): number {
  let count = 0;
  for (const field of fields(list)) if ('bytes' in field && field.number === 1) count++;
  return count;
}

/** Whether `key` (protobuf Key bytes) is active; an absent or empty key is not. */
export function keySatisfied(key: Uint8Array | undefined, signers: Signers): boolean {
  if (!key || key.length === 0) return false;
  if (signers.signatories) return keyActive(key, signers.signatories);
  try {
    for (const field of fields(key)) {
      if (!('bytes' in field)) continue;
      switch (field.number) {
        case KEY_CONTRACT_ID:
        case KEY_DELEGATABLE_CONTRACT_ID: {
          if (field.number === KEY_CONTRACT_ID && signers.delegated) return false;
          const named = contractAddress(field.bytes);
          return signers.contract.some((address) => equal(address, named));
        }
        case KEY_ED25519:
        case KEY_ECDSA_SECP256K1: {
          const origin = signers.originKey && primitive(signers.originKey);
          return origin?.number === field.number && equal(origin.bytes, field.bytes);
        }
        case KEY_LIST: {
          const size = listSize(field.bytes);
          return size > 0 && listSatisfied(field.bytes, signers) === size;
        }
        case KEY_THRESHOLD: {
          let threshold = 0n;
          let list: Uint8Array = new Uint8Array();
          for (const part of fields(field.bytes)) {
            if ('varint' in part && part.number === 1) threshold = part.varint;
            if ('bytes' in part && part.number === 2) list = part.bytes;
          }
          return threshold > 0n && BigInt(listSatisfied(list, signers)) >= threshold;
        }
      }
    }
  } catch {
    return false;
  }
  return false;
}

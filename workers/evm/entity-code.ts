/**
 * The code each kind of entity shows to the EVM: a contract its runtime bytecode; a token its redirect proxy to
 * HTS, a schedule its proxy to HSS (so `IERC20(token).name()` works); an account with a delegation the EIP-7702
 * designator of its delegate. A plain account has no code, except that a call to it with one of the account
 * service's redirect selectors runs the account proxy to HAS, as on Hedera (HIP-906): EXTCODESIZE still sees none.
 */
import type { EVM } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hexOfBytes } from '../../db/bytea.ts';
import type { Database } from '../../db/client.ts';
import type { Bytecode, BytecodeCache } from './bytecode-cache.ts';
import type { EntityCode, LedgerState } from './ledger-state.ts';
import { redirectBytecode } from './system/index.ts';

/** EIP-7702: the code of a delegating account, 0xef0100 followed by its delegate's address. */
const DELEGATION_PREFIX = [0xef, 0x01, 0x00];

const selector = (signature: string): string =>
  hexOfBytes(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4));

/** The functions an account's own address answers through the account proxy. */
const ACCOUNT_REDIRECT_SELECTORS = new Set(
  ['hbarAllowance(address)', 'hbarApprove(address,int256)', 'setUnlimitedAutomaticAssociations(bool)'].map(selector),
);

const withHash = (code: Uint8Array): Bytecode => ({ code, hash: keccak_256(code) });

function delegationCode(delegate: Uint8Array): Bytecode {
  const code = new Uint8Array(DELEGATION_PREFIX.length + delegate.length);
  code.set(DELEGATION_PREFIX);
  code.set(delegate, DELEGATION_PREFIX.length);
  return withHash(code);
}

export function entityCode(db: Database, bytecodes: BytecodeCache, delegations: boolean): EntityCode {
  return async (entity, address) => {
    switch (entity.type) {
      case 'CONTRACT':
        return bytecodes.get(db, entity.id);
      case 'TOKEN':
        return withHash(redirectBytecode('TOKEN', address));
      case 'SCHEDULE':
        return withHash(redirectBytecode('SCHEDULE', address));
      case 'ACCOUNT':
        return entity.delegationAddress && delegations ? delegationCode(entity.delegationAddress) : undefined;
      default:
        return undefined;
    }
  };
}

/**
 * Before each message: a call of an account-service selector to a plain account runs the account proxy. The
 * EVM's event cannot fail, so a failed read is kept for `takeError`, which the run checks after the call.
 */
export function redirectAccountCalls(evm: EVM, state: LedgerState): { takeError(): unknown } {
  let failure: unknown;
  evm.events.on('beforeMessage', (message, resolve) => {
    const done = () => resolve?.();
    const data = message.data;
    // A create's message has no address yet: its data is init code, never a call to an account.
    if (
      message.to === undefined ||
      message.code !== undefined ||
      data.length < 4 ||
      !ACCOUNT_REDIRECT_SELECTORS.has(hexOfBytes(data.subarray(0, 4)))
    ) {
      done();
      return;
    }
    redirectedCode(state, message.codeAddress)
      .then((code) => {
        if (code) {
          message.code = code;
          message.isCompiled = false;
        }
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(done);
  });
  return {
    takeError() {
      const error = failure;
      failure = undefined;
      return error;
    },
  };
}

async function redirectedCode(state: LedgerState, address: Address): Promise<Uint8Array | undefined> {
  const entity = await state.entityAt(address);
  if (entity?.type !== 'ACCOUNT' || entity.delegationAddress) return undefined;
  return redirectBytecode('ACCOUNT', (await state.canonical(address)).bytes);
}

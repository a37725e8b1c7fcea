/**
 * For tests: the code of a contract that makes two calls in one run, so the second sees the first's writes. Its
 * calldata is `first target (32 bytes) ++ first data length (32 bytes) ++ first data ++ second target (32 bytes) ++
 * second data`. The first call carries the value the contract was sent. A failed first call reverts with its data
 * (TWO_CALLS) or is passed over (FIRST_MAY_FAIL); the contract answers (or reverts) with the second call's.
 */
import { concatBytes } from '@ethereumjs/util';
import { bytesFromHex } from '../../../../db/bytea.ts';
import { address, encode, int } from '../abi.ts';

type Op = string | { label: string } | { push: string };

/** Assembles hex opcodes, `{ label }` jump destinations and `{ push: label }` 1-byte pushes of their offsets. */
function assemble(ops: readonly Op[]): Uint8Array {
  const offsets = new Map<string, number>();
  let at = 0;
  for (const op of ops) {
    if (typeof op === 'string') at += op.length / 2;
    else if ('label' in op) offsets.set(op.label, at++);
    else at += 2;
  }
  const hex = ops
    .map((op) => {
      if (typeof op === 'string') return op;
      if ('label' in op) return '5b';
      return `60${(offsets.get(op.push) ?? 0).toString(16).padStart(2, '0')}`;
    })
    .join('');
  return bytesFromHex(hex);
}

/** `call(gas, target, value, 0, size, 0, 0)` with the stack [target, size, …]; leaves [success, …]. */
const callWith = (value: string) => ['6000', '6000', '83', '6000', value, '85', '5a', 'f1', '90', '50', '90', '50'];
const CALLVALUE = '34';
const NO_VALUE = '6000';

const twoCallsCode = (firstMayFail: boolean) =>
  assemble([
    // first: target = cd[0], size = cd[32], data at 64
    '6020',
    '35',
    '80',
    '6040',
    '6000',
    '37', // [L1]: calldatacopy(0, 64, L1)
    '80',
    '6000',
    '35', // [target, L1, L1]
    ...callWith(CALLVALUE), // [s1, L1]
    ...(firstMayFail ? ['50'] : ['15', { push: 'failed' }, '57']), // [L1]
    // second: target = cd[64 + L1], data at 96 + L1, size = cds - 96 - L1
    '80',
    '6040',
    '01',
    '35', // [t2, L1]
    '90',
    '6060',
    '01', // [off2, t2]
    '80',
    '36',
    '03', // [size2, off2, t2]
    '80',
    '91', // [off2, size2, size2, t2]
    '6000',
    '37', // [size2, t2]
    '90', // [t2, size2]
    ...callWith(NO_VALUE), // [s2]
    '3d',
    '6000',
    '6000',
    '3e',
    { push: 'ok' },
    '57',
    '3d',
    '6000',
    'fd',
    { label: 'ok' },
    '3d',
    '6000',
    'f3',
    { label: 'failed' },
    '3d',
    '6000',
    '6000',
    '3e',
    '3d',
    '6000',
    'fd',
  ]);

export const TWO_CALLS = twoCallsCode(false);
export const FIRST_MAY_FAIL = twoCallsCode(true);

/** The calldata of TWO_CALLS for two calls. */
export function twoCalls(first: { to: Uint8Array; data: Uint8Array }, second: { to: Uint8Array; data: Uint8Array }) {
  const parts = [
    encode(address(first.to), int(BigInt(first.data.length))),
    first.data,
    encode(address(second.to)),
    second.data,
  ];
  return concatBytes(...parts);
}

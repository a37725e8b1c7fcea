import { expect, it } from 'vitest';
import { TREASURY } from '../ledger/ids.ts';
import { Network } from '../network/network.ts';
import { Random } from '../random.ts';
import { spendAllowance } from './allowances.ts';
import { HBAR } from './pick.ts';

const OWNER = 1001n;
const SPENDER = 1002n;
const TOKEN = 1003n;

function networkWith(allowance: { key: string; left: bigint }): Network {
  const net = new Network({ random: new Random('allowances'), nodeCount: 4, tps: 10, startNs: 1n });
  const { ledger } = net;
  for (const num of [OWNER, SPENDER]) {
    ledger.createAccount(num, net.keys.next('ed25519'), { memo: '', evmAddress: undefined, maxAutoAssociations: 0 });
    ledger.applyHbar(
      new Map([
        [TREASURY, -100n * HBAR],
        [num, 100n * HBAR],
      ]),
    );
    ledger.associate(num, TOKEN);
  }
  if (allowance.key.startsWith('c:')) ledger.cryptoAllowances.set(`${OWNER}/${SPENDER}`, allowance.left);
  else ledger.tokenAllowances.set(`${OWNER}/${SPENDER}/${TOKEN}`, allowance.left);
  ledger.allowanceKeys.add(allowance.key);
  return net;
}

// An allowance with nothing left to spend, or an owner with none of the token, leaves an empty range of amounts:
// the spender has nothing to take, and nothing is submitted.
it.each([
  ['an hbar allowance spent to zero', { key: `c:${OWNER}/${SPENDER}`, left: 0n }],
  ['a token allowance whose owner holds none of the token', { key: `t:${OWNER}/${SPENDER}/${TOKEN}`, left: 50n }],
])('submits nothing for %s', async (_name, allowance) => {
  const net = networkWith(allowance);
  await expect(spendAllowance(net)).resolves.toBe(false);
  expect(net.ledger.tokenBalance(SPENDER, TOKEN)).toBe(0n);
});

/**
 * The node's size limit at precheck (HIP-1300): 6 KiB for a transaction with its signatures, 130 KiB when the payer
 * is a privileged account (0.0.2, 0.0.50).
 */
import { describe, expect, it } from 'vitest';
import { edKey, NodeClient } from '../testing/node-client.ts';

/** A CryptoCreate carrying 80 signatures it does not need, about 100 bytes each. */
function oversized(client: NodeClient, payer: bigint, payerKey: Uint8Array[] = []) {
  const extra = Array.from({ length: 80 }, () => edKey().privateKey);
  const data = { cryptoCreateAccount: { key: { ed25519: edKey().publicKey }, initialBalance: '0' } };
  return client.sign(data, [...payerKey, ...extra], payer).bytes;
}

describe('precheck of a transaction over 6 KiB', () => {
  it('accepts it from 0.0.2 and refuses it from any other payer with TRANSACTION_OVERSIZE', async () => {
    const client = new NodeClient();
    const user = await client.account();
    const fromGenesis = oversized(client, 2n);
    const fromUser = oversized(client, user.num, [user.key.privateKey]);

    expect(fromGenesis.length).toBeGreaterThan(6_144);
    expect(fromUser.length).toBeGreaterThan(6_144);
    expect(client.submit(fromGenesis)).toBe('OK');
    expect(client.submit(fromUser)).toBe('TRANSACTION_OVERSIZE');
  });

  it('refuses anything over 130 KiB, whoever pays', () => {
    const client = new NodeClient();
    const data = { fileCreate: { contents: new Uint8Array(133_200).fill(1), keys: { keys: [] } } };

    expect(client.submit(client.sign(data).bytes)).toBe('TRANSACTION_OVERSIZE');
  });
});

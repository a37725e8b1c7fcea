import { describe, expect, it } from 'vitest';
import { decodeEthereumTransaction } from './ethereum-transaction.ts';
import { toHex } from './hash.ts';

// EIP-155's example: nonce 9, gas price 20 gwei, gas 21000, to 0x3535…, value 1 ether, chain id 1.
const LEGACY =
  'f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83';

describe('signed Ethereum transactions', () => {
  it('reads an EIP-155 legacy transaction and its chain id from v', () => {
    const tx = decodeEthereumTransaction(new Uint8Array(Buffer.from(LEGACY, 'hex')));
    expect(tx).toMatchObject({ type: 0, nonce: 9n, gasLimit: 21000n, recoveryId: 0 });
    expect(toHex(tx.chainId ?? new Uint8Array())).toBe('01');
    expect(toHex(tx.to)).toBe('3535353535353535353535353535353535353535');
    expect(toHex(tx.value)).toBe('0de0b6b3a7640000');
    expect(toHex(tx.gasPrice ?? new Uint8Array())).toBe('04a817c800');
    expect(toHex(tx.v ?? new Uint8Array())).toBe('25');
  });

  it('reads an EIP-1559 transaction', () => {
    // 0x02 || rlp([chainId 0x012a, nonce 2, tip 0x2f, maxFee 0x2f, gas 0x5208, to, value 0, data 0x, [], yParity 1, r, s])
    const body = Buffer.from(
      'f86b82012a022f2f8252089400000000000000000000000000000000000013898080c001a0' +
        '11'.repeat(32) +
        'a0' +
        '22'.repeat(32),
      'hex',
    );
    // Fix the list length prefix to the body's real payload length.
    const payload = body.subarray(2);
    const encoded = Buffer.concat([Buffer.from([0x02, 0xf8, payload.length]), payload]);
    const tx = decodeEthereumTransaction(new Uint8Array(encoded));
    expect(tx).toMatchObject({ type: 2, nonce: 2n, gasLimit: 21000n, recoveryId: 1 });
    expect(toHex(tx.chainId ?? new Uint8Array())).toBe('012a');
    expect(toHex(tx.maxFeePerGas ?? new Uint8Array())).toBe('2f');
    expect(toHex(tx.r)).toBe('11'.repeat(32));
    expect(tx.accessList && toHex(tx.accessList)).toBe('c0');
  });
});

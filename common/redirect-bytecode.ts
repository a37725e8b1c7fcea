/**
 * The code a token, account or schedule address shows to the EVM (HIP-218, HIP-719, HIP-906): a proxy compiled
 * from Solidity that DELEGATECALLs a system contract with `selector ++ its own address (20 bytes) ++ the calldata`
 * and returns or reverts with the answer. These are the consensus node's bytes with the system contract's number
 * (RRRR), the redirect selector (SSSSSSSS) and the entity's address (AAAA…) filled in, so EXTCODESIZE,
 * EXTCODEHASH and EXTCODECOPY of such an address match Hedera.
 */
const TEMPLATE =
  '6080604052348015600f57600080fd5b50600061RRRR905077SSSSSSSSAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  '600052366000602037600080366018016008845af43d806000803e8160008114605857816000f35b816000fdfea2646970667358' +
  '221220d8378feed472ba49a0005514ef7087017f707b45fb9bf56bb81bb93ff19a238b64736f6c634300080b0033';

const REDIRECTS = {
  /** `redirectForToken(address,bytes)` on HTS 0x167. */
  TOKEN: { contract: '0167', selector: '618dc65e' },
  /** `redirectForAccount(address,bytes)` on HAS 0x16a. */
  ACCOUNT: { contract: '016a', selector: 'e4cbd3a7' },
  /** `redirectForScheduleTxn(address,bytes)` on HSS 0x16b. */
  SCHEDULE: { contract: '016b', selector: '5c3889ca' },
} as const;

export type RedirectKind = keyof typeof REDIRECTS;

/** The proxy's bytes for the entity at `address`. Shared by the mirror's EVM and the simulated network's. */
export function redirectBytecode(kind: RedirectKind, address: Uint8Array): Uint8Array {
  if (address.length !== 20) throw new RangeError('an address has 20 bytes');
  const { contract, selector } = REDIRECTS[kind];
  const addressHex = Array.from(address, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const text = TEMPLATE.replace('RRRR', contract).replace('SSSSSSSS', selector).replace('A'.repeat(40), addressHex);
  const code = new Uint8Array(text.length / 2);
  for (let i = 0; i < code.length; i++) code[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return code;
}

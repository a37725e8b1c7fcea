/**
 * Chain ids of `hiero.mirror.web3.evm.network` (`HIERO_MIRROR_WEB3_EVM_NETWORK`): what CHAINID answers and which
 * EIP-7702 authorizations apply. The simulated network signs for the chain the same setting names.
 */
export const CHAIN_IDS = { MAINNET: 295n, TESTNET: 296n, PREVIEWNET: 297n, OTHER: 298n } as const;

export type EvmNetwork = keyof typeof CHAIN_IDS;

/** The chain id of a network name in any case; undefined for a name the setting does not take. */
export function chainIdOfNetwork(name: string): bigint | undefined {
  const upper = name.toUpperCase();
  return upper in CHAIN_IDS ? CHAIN_IDS[upper as EvmNetwork] : undefined;
}

/**
 * The network the local mirror's EVM runs on (`HIERO_MIRROR_WEB3_EVM_NETWORK`): as set; unset while the simulated
 * network runs, `OTHER`, the chain it signs for (simulator/evm/ethereum-tx.ts reads the same variable), so CHAINID
 * and type-4 authorizations agree with the ledger; otherwise unset, the Worker's default (TESTNET).
 */
export function localEvmNetwork(env: NodeJS.ProcessEnv, simulated: boolean): string | undefined {
  return env.HIERO_MIRROR_WEB3_EVM_NETWORK ?? (simulated ? 'OTHER' : undefined);
}

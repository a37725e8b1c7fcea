/**
 * The ERC-20 / ERC-721 writes of a token through its redirect proxy: `transfer`, `transferFrom`, `approve` and
 * `setApprovalForAll`, each a synthetic HAPI transaction for the caller of the proxy (Erc20TransfersCall,
 * Erc721TransferFromCall, ERCGrantApprovalCall, SetApprovalForAllCall). A failure reverts with the status's code in a
 * 32-byte word (FullResult.revertResult of a dispatch); the
 * gas is that of the HAPI operation (hts-gas.ts) whether it succeeds or not.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { longZeroAddress } from '../addresses.ts';
import { bool, encode, selectorOf } from './abi.ts';
import { approveNft, approveTokenAllowance, setApprovalForAll } from './approvals.ts';
import { type CryptoTransfer, dispatchTransfer, hasCustomFees } from './crypto-transfer.ts';
import type { HtsCall } from './hts-context.ts';
import { canonicalGas, transferGas } from './hts-gas.ts';
import { type ResponseCodeName, revertWithCode, success } from './results.ts';
import type { TokenState } from './token-state.ts';

type ErcWrite = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

const TRUE = encode(bool(true));
const EMPTY = new Uint8Array();

const outcome = (call: HtsCall, status: ResponseCodeName, gas: bigint, output: Uint8Array) =>
  status === 'SUCCESS' ? success(gas, call.gasLimit, output) : revertWithCode(status, gas, call.gasLimit);

async function transferOf(call: HtsCall, transfer: CryptoTransfer, output: Uint8Array): Promise<ExecResult> {
  const shape = {
    hbarAdjusts: 0,
    unitAdjusts: transfer.tokens.reduce((n, list) => n + list.adjusts.length, 0),
    nftExchanges: transfer.tokens.reduce((n, list) => n + list.nfts.length, 0),
    customFees: await hasCustomFees(call, transfer),
  };
  const { status, autoAssociations } = await dispatchTransfer(call, transfer, false);
  const gas = transferGas(shape) + BigInt(autoAssociations) * canonicalGas('ASSOCIATE');
  return outcome(call, status, gas, output);
}

/** An ERC-20 amount: a uint256 above int64's range cannot be a HAPI amount. */
const INT64_MAX = (1n << 63n) - 1n;

function fungibleTransfer(call: HtsCall, token: TokenState, from: Uint8Array, to: Uint8Array, amount: bigint) {
  if (amount > INT64_MAX) return revertWithCode('INVALID_ACCOUNT_AMOUNTS', transferGas(unitShape), call.gasLimit);
  const approval = !from.every((byte, i) => byte === call.sender[i]);
  return transferOf(
    call,
    {
      hbar: [],
      tokens: [
        {
          token: longZeroAddress(token.id),
          adjusts: [
            { account: to, amount, approval: false },
            { account: from, amount: -amount, approval },
          ],
          nfts: [],
        },
      ],
    },
    TRUE,
  );
}

const unitShape = { hbarAdjusts: 0, unitAdjusts: 2, nftExchanges: 0, customFees: false };

export const ERC_WRITES: ReadonlyMap<number, ErcWrite> = new Map<number, ErcWrite>([
  [
    selectorOf('transfer(address,uint256)'),
    async (call, token) => fungibleTransfer(call, token, call.sender, call.args.address(0), call.args.uint(1)),
  ],
  [
    selectorOf('transferFrom(address,address,uint256)'),
    async (call, token) => {
      const [from, to, value] = [call.args.address(0), call.args.address(1), call.args.uint(2)];
      if (token.fungible) return fungibleTransfer(call, token, from, to, value);
      const approval = !from.every((byte, i) => byte === call.sender[i]);
      const nfts = [{ from, to, serial: value > INT64_MAX ? -1n : value, approval }];
      return transferOf(call, { hbar: [], tokens: [{ token: longZeroAddress(token.id), adjusts: [], nfts }] }, EMPTY);
    },
  ],
  [
    selectorOf('approve(address,uint256)'),
    async (call, token) => {
      const [spender, value] = [call.args.address(0), call.args.uint(1)];
      if (token.fungible) {
        const status = await approveTokenAllowance(call, token, spender, value);
        return outcome(call, status, canonicalGas('APPROVE'), TRUE);
      }
      const status = await approveNft(call, token, spender, value);
      return outcome(call, status, canonicalGas('APPROVE'), EMPTY);
    },
  ],
  [
    selectorOf('setApprovalForAll(address,bool)'),
    async (call, token) => {
      const status = await setApprovalForAll(call, token, call.args.address(0), call.args.bool(1));
      return outcome(call, status, canonicalGas('APPROVE'), EMPTY);
    },
  ],
]);

/**
 * The ERC-20 / ERC-721 writes of a token through its redirect proxy: `transfer`, `transferFrom`, `approve` and
 * `setApprovalForAll`, each a synthetic HAPI transaction for the caller of the proxy (Erc20TransfersCall,
 * Erc721TransferFromCall, ERCGrantApprovalCall, SetApprovalForAllCall). A failure reverts with the status's code in a
 * 32-byte word (FullResult.revertResult of a dispatch); the
 * gas is that of the HAPI operation (hts-gas.ts) whether it succeeds or not.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { longZeroAddress } from '../addresses.ts';
import { AbiDecodeError, bool, encode, selectorOf } from './abi.ts';
import { approveNft, approveTokenAllowance, setApprovalForAll } from './approvals.ts';
import { partiesOf } from './call-parties.ts';
import { type CryptoTransfer, dispatchTransfer, hasCustomFees } from './crypto-transfer.ts';
import type { HtsCall } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { type ResponseCodeName, revertWithCode, success } from './results.ts';
import type { TokenState } from './token-state.ts';
import { transferCallGas } from './transfer-gas.ts';

type ErcWrite = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

const TRUE = encode(bool(true));
const EMPTY = new Uint8Array();

const outcome = (call: HtsCall, status: ResponseCodeName, gas: bigint, output: Uint8Array) =>
  status === 'SUCCESS' ? success(gas, call.gasLimit, output) : revertWithCode(status, gas, call.gasLimit);

async function transferOf(call: HtsCall, transfer: CryptoTransfer, output: Uint8Array): Promise<ExecResult> {
  const customFees = await hasCustomFees(call, transfer);
  const { status, autoAssociations, lazyCreations } = await dispatchTransfer(call, transfer, false);
  const gas =
    (await transferCallGas(call, transfer, customFees, lazyCreations)) +
    BigInt(autoAssociations) * canonicalGas('ASSOCIATE');
  return outcome(call, status, gas, output);
}

const INT64_MAX = (1n << 63n) - 1n;

/** A uint256 amount or serial as the node reads it (`longValueExact`): beyond int64 the call halts. */
function int64Of(value: bigint): bigint {
  if (value > INT64_MAX) throw new AbiDecodeError('not an int64');
  return value;
}

/**
 * An ERC-20 transfer of `amount` from `from` to `to`: `transferFrom` always debits through an allowance to the
 * sender (Erc20TransfersTranslator's requiresApproval), `transfer` debits the sender itself.
 */
function fungibleTransfer(
  call: HtsCall,
  token: TokenState,
  move: { from: Uint8Array; to: Uint8Array; amount: bigint; approval: boolean },
) {
  const { from, to, amount, approval } = move;
  const adjusts = [
    { account: to, amount, approval: false },
    { account: from, amount: -amount, approval },
  ];
  return transferOf(call, { hbar: [], tokens: [{ token: longZeroAddress(token.id), adjusts, nfts: [] }] }, TRUE);
}

export const ERC_WRITES: ReadonlyMap<number, ErcWrite> = new Map<number, ErcWrite>([
  [
    selectorOf('transfer(address,uint256)'),
    async (call, token) =>
      fungibleTransfer(call, token, {
        from: call.sender,
        to: call.args.address(0),
        amount: int64Of(call.args.uint(1)),
        approval: false,
      }),
  ],
  [
    selectorOf('transferFrom(address,address,uint256)'),
    async (call, token) => {
      const [from, to, value] = [call.args.address(0), call.args.address(1), int64Of(call.args.uint(2))];
      if (token.fungible) return fungibleTransfer(call, token, { from, to, amount: value, approval: true });
      // The debit uses an allowance unless the sender owns the serial (Erc721TransferFromCall).
      const nft = await call.tokens.nft(token.id, value);
      const owner = nft?.account_id === null || nft === undefined ? token.treasury : BigInt(nft.account_id);
      const approval = owner !== (await partiesOf(call)).sender?.id;
      const nfts = [{ from, to, serial: value, approval }];
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

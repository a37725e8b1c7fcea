/**
 * The transfers and approvals called on HTS 0x167 directly (IHederaTokenService). Transfers answer the response
 * code of their synthetic CryptoTransfer and keep nothing of a failed one (ClassicTransfersCall); the legacy ones
 * retry a debit the sender may not make as a debit of an allowance to it. Approvals revert on failure with the
 * status's code in a 32-byte word, or its name when the token does not exist (ClassicGrantApprovalCall). The token administration functions are in hts-token-admin.ts.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { type AbiArgs, AbiDecodeError, bool, encode, int, selectorOf } from './abi.ts';
import { approveNft, approveTokenAllowance, setApprovalForAll } from './approvals.ts';
import {
  type CryptoTransfer,
  creditsSystemAccount,
  dispatchTransfer,
  hasCustomFees,
  type TransferOutcome,
} from './crypto-transfer.ts';
import { aliasCredits, lazyCreationCount } from './hollow-accounts.ts';
import { AIRDROP_FUNCTIONS } from './hts-airdrops.ts';
import { ASSOCIATION_FUNCTIONS } from './hts-associations.ts';
import type { HtsCall, HtsFunction } from './hts-context.ts';
import { tokenAt } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { NFT_METADATA_FUNCTIONS } from './hts-nft-metadata.ts';
import { TOKEN_ADMIN_FUNCTIONS } from './hts-token-admin.ts';
import { TOKEN_CREATE_FUNCTIONS } from './hts-token-create.ts';
import { TOKEN_FEE_FUNCTIONS } from './hts-token-fees.ts';
import { TOKEN_REJECT_FUNCTIONS } from './hts-token-reject.ts';
import { TOKEN_UPDATE_FUNCTIONS } from './hts-token-update.ts';
import { type ResponseCodeName, responseCode, revertWith, revertWithCode, success } from './results.ts';
import { adjustsOf, tokenListsOf } from './token-transfer-lists.ts';
import { transferCallGas } from './transfer-gas.ts';

const INT64_MAX = (1n << 63n) - 1n;

const codeOutput = (status: ResponseCodeName): Uint8Array => encode(int(responseCode(status)));

async function transferCall(call: HtsCall, transfer: CryptoTransfer, switchToApprovals: boolean): Promise<ExecResult> {
  const customFees = await hasCustomFees(call, transfer);
  // A credit to a system account preempts the dispatch, priced as the dispatch would be (SystemAccountCreditScreen).
  const outcome: TransferOutcome = creditsSystemAccount(call, transfer)
    ? {
        status: 'INVALID_RECEIVING_NODE_ACCOUNT',
        autoAssociations: 0,
        lazyCreations: lazyCreationCount(call, await aliasCredits(call, transfer)),
      }
    : await dispatchTransfer(call, transfer, switchToApprovals);
  const { status: dispatched, autoAssociations, lazyCreations } = outcome;
  const gas = await transferCallGas(call, transfer, customFees, lazyCreations);
  // The classic calls answer INVALID_SIGNATURE in its pre-HIP-206 name (CallStatusStandardizer).
  const status = dispatched === 'INVALID_SIGNATURE' ? 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE' : dispatched;
  const charged = gas + BigInt(autoAssociations) * canonicalGas('ASSOCIATE');
  if (status === 'INVALID_RECEIVING_NODE_ACCOUNT') return revertWithCode(status, charged, call.gasLimit);
  return success(charged, call.gasLimit, codeOutput(status));
}

/** `cryptoTransfer`: v1 `(TokenTransferList[])`, v2 `(TransferList, TokenTransferList[])` with approval flags. */
function cryptoTransferOf(args: AbiArgs, v2: boolean): CryptoTransfer {
  const hbar = v2 ? adjustsOf(args.tuple(0).array(0), true) : [];
  return { hbar, tokens: tokenListsOf(args.array(v2 ? 1 : 0), v2) };
}

/** An int64 argument given as uint256 (transferFrom and approve): beyond int64 it cannot be a HAPI amount. */
const int64Of = (value: bigint): bigint => (value > INT64_MAX ? -1n : value);

const TRANSFERS: [string, HtsFunction][] = [
  [
    'cryptoTransfer((address,(address,int64)[],(address,address,int64)[])[])',
    (call) => transferCall(call, cryptoTransferOf(call.args, false), true),
  ],
  [
    'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
    (call) => transferCall(call, cryptoTransferOf(call.args, true), false),
  ],
  [
    'transferTokens(address,address[],int64[])',
    (call) => {
      const accounts = call.args.array(1);
      const amounts = call.args.array(2);
      if (accounts.length !== amounts.length) throw new AbiDecodeError('lengths differ');
      const list = Array.from({ length: accounts.length }, (_, i) => ({
        account: accounts.items.address(i),
        amount: amounts.items.int(i, 64),
        approval: false,
      }));
      return transferCall(call, { hbar: [], tokens: [{ token: call.args.address(0), adjusts: list, nfts: [] }] }, true);
    },
  ],
  [
    'transferNFTs(address,address[],address[],int64[])',
    (call) => {
      const [senders, receivers, serials] = [call.args.array(1), call.args.array(2), call.args.array(3)];
      if (senders.length !== receivers.length || senders.length !== serials.length) {
        throw new AbiDecodeError('lengths differ');
      }
      const nfts = Array.from({ length: senders.length }, (_, i) => ({
        from: senders.items.address(i),
        to: receivers.items.address(i),
        serial: serials.items.int(i, 64),
        approval: false,
      }));
      return transferCall(call, { hbar: [], tokens: [{ token: call.args.address(0), adjusts: [], nfts }] }, true);
    },
  ],
  [
    'transferToken(address,address,address,int64)',
    (call) => {
      const [token, from, to, amount] = [
        call.args.address(0),
        call.args.address(1),
        call.args.address(2),
        call.args.int(3, 64),
      ];
      const list = [
        { account: from, amount: -amount, approval: false },
        { account: to, amount, approval: false },
      ];
      return transferCall(call, { hbar: [], tokens: [{ token, adjusts: list, nfts: [] }] }, true);
    },
  ],
  [
    'transferNFT(address,address,address,int64)',
    (call) => {
      const nft = {
        from: call.args.address(1),
        to: call.args.address(2),
        serial: call.args.int(3, 64),
        approval: false,
      };
      return transferCall(
        call,
        { hbar: [], tokens: [{ token: call.args.address(0), adjusts: [], nfts: [nft] }] },
        true,
      );
    },
  ],
  [
    'transferFrom(address,address,address,uint256)',
    (call) => {
      const [token, from, to, amount] = [
        call.args.address(0),
        call.args.address(1),
        call.args.address(2),
        int64Of(call.args.uint(3)),
      ];
      const list = [
        { account: from, amount: -amount, approval: true },
        { account: to, amount, approval: false },
      ];
      return transferCall(call, { hbar: [], tokens: [{ token, adjusts: list, nfts: [] }] }, false);
    },
  ],
  [
    'transferFromNFT(address,address,address,uint256)',
    (call) => {
      const nft = {
        from: call.args.address(1),
        to: call.args.address(2),
        serial: int64Of(call.args.uint(3)),
        approval: true,
      };
      return transferCall(
        call,
        { hbar: [], tokens: [{ token: call.args.address(0), adjusts: [], nfts: [nft] }] },
        false,
      );
    },
  ],
];

/** An approval on the token in argument 0: revert with the status on failure, `output` on success. */
function approval(
  apply: (call: HtsCall, token: NonNullable<Awaited<ReturnType<typeof tokenAt>>>) => Promise<ResponseCodeName>,
  output: (status: ResponseCodeName) => Uint8Array,
): HtsFunction {
  return async (call) => {
    const gas = canonicalGas('APPROVE');
    const token = await tokenAt(call, call.args.address(0));
    if (!token) return revertWith('INVALID_TOKEN_ID', gas, call.gasLimit);
    const status = await apply(call, token);
    if (status !== 'SUCCESS') return revertWithCode(status, gas, call.gasLimit);
    return success(gas, call.gasLimit, output(status));
  };
}

const APPROVALS: [string, HtsFunction][] = [
  [
    'approve(address,address,uint256)',
    approval(
      (call, token) => approveTokenAllowance(call, token, call.args.address(1), call.args.uint(2)),
      (status) => encode(int(responseCode(status)), bool(true)),
    ),
  ],
  [
    'approveNFT(address,address,uint256)',
    approval((call, token) => approveNft(call, token, call.args.address(1), call.args.uint(2)), codeOutput),
  ],
  [
    'setApprovalForAll(address,address,bool)',
    approval((call, token) => setApprovalForAll(call, token, call.args.address(1), call.args.bool(2)), codeOutput),
  ],
];

export const DIRECT_WRITES: ReadonlyMap<number, HtsFunction> = new Map<number, HtsFunction>(
  [
    ...TRANSFERS,
    ...APPROVALS,
    ...ASSOCIATION_FUNCTIONS,
    ...TOKEN_ADMIN_FUNCTIONS,
    ...TOKEN_CREATE_FUNCTIONS,
    ...TOKEN_UPDATE_FUNCTIONS,
    ...NFT_METADATA_FUNCTIONS,
    ...TOKEN_REJECT_FUNCTIONS,
    ...TOKEN_FEE_FUNCTIONS,
    ...AIRDROP_FUNCTIONS,
  ].map(([signature, fn]) => [selectorOf(signature), fn]),
);

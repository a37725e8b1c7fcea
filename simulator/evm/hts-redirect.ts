/**
 * ERC-20 calls on a fungible token's own address, as the node's token proxy hands them to 0x167 (redirectForToken):
 * the views name, symbol, decimals, totalSupply, balanceOf and allowance answer from the ledger model at the view gas
 * (a view naming no account reverts with the status name); transfer, transferFrom and approve run as the classic
 * transferToken, transferFrom and approve for the caller, at their gas, answering `true` with the ERC-20 Transfer or
 * Approval event from the token's address, or reverting with the status's code in a word (Erc20TransfersCall,
 * ERCGrantApprovalCall).
 */
import { EVMError, type ExecResult } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '../../common/concat-bytes.ts';
import { longZeroAddress } from '../ledger/ids.ts';
import type { Ledger, Token } from '../ledger/ledger.ts';
import { addressWord, readUint, stringTail, word } from './abi.ts';
import type { SystemCall } from './hedera-evm.ts';
import { accountOf, argWord, CallFailure } from './hts-arguments.ts';
import { type HtsOperation, htsCallData } from './hts-functions.ts';
import { VIEW_GAS } from './hts-views.ts';

const SUCCESS = 22;
const INT64_MAX = (1n << 63n) - 1n;

export type ErcCall =
  | { readonly result: ExecResult }
  | {
      readonly operation: HtsOperation;
      /** The classic call it runs as. */
      readonly data: Uint8Array;
      readonly answer: (status: number, gas: bigint) => ExecResult;
    };

const hashOf = (text: string) => keccak_256(new TextEncoder().encode(text));
const selectorHex = (signature: string) => Buffer.from(hashOf(signature).subarray(0, 4)).toString('hex');
const TRANSFER_EVENT = hashOf('Transfer(address,address,uint256)');
const APPROVAL_EVENT = hashOf('Approval(address,address,uint256)');

const viewOf = (returnValue: Uint8Array): { result: ExecResult } => ({
  result: { returnValue, executionGasUsed: VIEW_GAS },
});

/** The ERC-20 call `call` makes on `token` for `caller`, or undefined for a function the redirect does not run. */
export function erc20Call(ledger: Ledger, token: Token, caller: bigint, call: SystemCall): ErcCall | undefined {
  const { data, gasLimit } = call;
  if (VIEW_GAS > gasLimit) return undefined;
  const selector = Buffer.from(data.subarray(0, 4)).toString('hex');
  const address = (index: number) => argWord(data, index).subarray(12);
  const tokenAddress = longZeroAddress(token.num);
  try {
    switch (selector) {
      case selectorHex('name()'):
        return viewOf(concatBytes([word(32n), stringTail(token.name)]));
      case selectorHex('symbol()'):
        return viewOf(concatBytes([word(32n), stringTail(token.symbol)]));
      case selectorHex('decimals()'):
        return viewOf(word(BigInt(token.decimals)));
      case selectorHex('totalSupply()'):
        return viewOf(word(token.totalSupply));
      case selectorHex('balanceOf(address)'):
        return viewOf(word(ledger.tokenBalance(accountOf(ledger, address(0)), token.num)));
      case selectorHex('allowance(address,address)'): {
        const [owner, spender] = [accountOf(ledger, address(0)), accountOf(ledger, address(1))];
        return viewOf(word(ledger.tokenAllowances.get(`${owner}/${spender}/${token.num}`) ?? 0n));
      }
    }
  } catch (error) {
    if (!(error instanceof CallFailure)) throw error;
    const name = error.status === 15 ? 'INVALID_ACCOUNT_ID' : String(error.status);
    return {
      result: {
        returnValue: new TextEncoder().encode(name),
        executionGasUsed: VIEW_GAS,
        exceptionError: new EVMError(EVMError.errorMessages.REVERT),
      },
    };
  }
  const amountAt = (index: number) => readUint(argWord(data, index));
  const callerAddress = ledger.canonicalAddress(caller);
  const write = (
    operation: HtsOperation,
    classic: Uint8Array,
    event: { topic: Uint8Array; from: Uint8Array; to: Uint8Array; amount: bigint },
  ): ErcCall | undefined =>
    event.amount > INT64_MAX
      ? undefined
      : {
          operation,
          data: classic,
          answer: (status, gas) =>
            status === SUCCESS
              ? {
                  returnValue: word(1n),
                  executionGasUsed: gas,
                  logs: [
                    [tokenAddress, [event.topic, addressWord(event.from), addressWord(event.to)], word(event.amount)],
                  ],
                }
              : {
                  returnValue: word(BigInt(status)),
                  executionGasUsed: gas,
                  exceptionError: new EVMError(EVMError.errorMessages.REVERT),
                },
        };
  switch (selector) {
    case selectorHex('transfer(address,uint256)'): {
      const [to, amount] = [address(0), amountAt(1)];
      const classic = htsCallData('transferToken', [tokenAddress, callerAddress, to, amount]);
      return write('transferToken', classic, { topic: TRANSFER_EVENT, from: callerAddress, to, amount });
    }
    case selectorHex('transferFrom(address,address,uint256)'): {
      const [from, to, amount] = [address(0), address(1), amountAt(2)];
      const classic = htsCallData('transferFrom', [tokenAddress, from, to, amount]);
      return write('transferFrom', classic, { topic: TRANSFER_EVENT, from, to, amount });
    }
    case selectorHex('approve(address,uint256)'): {
      const [spender, amount] = [address(0), amountAt(1)];
      const classic = htsCallData('approve', [tokenAddress, spender, amount]);
      return write('approve', classic, { topic: APPROVAL_EVENT, from: callerAddress, to: spender, amount });
    }
    default:
      return undefined;
  }
}

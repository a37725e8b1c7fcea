/**
 * Contracts calling the Hedera Token Service: an HtsCaller contract (evm/contracts/HtsCaller.sol) forwards a
 * ContractCall's data to 0x167, so the system contract acts for the HtsCaller's own account: it associates itself with
 * tokens of the ledger and dissociates, transfers units and NFTs holders sent it (and hbar, with units, by
 * cryptoTransfer), and approves spenders; it mints, burns, wipes, pauses, freezes and grants KYC for a fungible token
 * and an NFT collection whose keys name it, and creates tokens of its own. The answer, the gas and the records come
 * from the ledger model (evm/hts-system.ts), as a consensus node writes them: the ContractCall's record and sidecars
 * with the system call as a second action, and a child record of the dispatched transaction (nonce 1, one nanosecond
 * later) with its status, token transfers and the system contract's result.
 *
 * A call is made only as the first transaction of a record file, so the ledger at the block before it is the one it
 * ran on: a mirror's historical call at that block must answer what the network answered.
 */

import type { SimEvm } from '../evm/evm.ts';
import { withSystemActions, writeDispatchChildren } from '../evm/hts-records.ts';
import { htsSystemContract, type SystemCallRecord } from '../evm/hts-system.ts';
import { functionResult, sidecarsOf } from '../evm/records.ts';
import { accountPb, contractPb, FEE_COLLECTOR, i64, longZeroAddress } from '../ledger/ids.ts';
import type { Contract, Token } from '../ledger/ledger.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { noteResult } from './contract-calls.ts';
import { CONTRACT_REVERT_EXECUTED, deployContract } from './contracts.ts';
import { planSystemCall } from './hts-plans.ts';
import { HBAR, payerWith } from './pick.ts';
import { applyTokenTransfers, tokenCreated } from './tokens.ts';

const AUTO_RENEW_SECONDS = '7776000';
/** The system contract's price is most of the call's gas; 1,000,000 leaves room for the HtsCaller's own. */
const GAS = 1_000_000n;

/** One contract's system call, or its deployment when the ledger has no HtsCaller yet. */
export async function htsCall(net: Network, evm: SimEvm): Promise<boolean> {
  const callers = [...net.ledger.contracts.values()].filter((c) => c.kind === 'HtsCaller');
  if (callers.length === 0) return deployContract(net, evm, 'HtsCaller');
  const caller = net.random.pick(callers);
  if (net.fileStarted) {
    // The tokens users created for it to manage; an NFT collection it created itself is its own treasury.
    const managed = [...net.ledger.tokens.values()]
      .filter((t) => t.manager === caller.num && t.treasury !== caller.num && !t.deleted)
      .map((t) => t.type);
    if (!managed.includes('FUNGIBLE_COMMON')) return createManagedToken(net, caller, 'FUNGIBLE_COMMON');
    if (!managed.includes('NON_FUNGIBLE_UNIQUE')) return createManagedToken(net, caller, 'NON_FUNGIBLE_UNIQUE');
    return fundCaller(net, caller);
  }
  const plan = planSystemCall(net, caller);
  const sender = payerWith(net, 20n * HBAR);
  if (!plan || !sender) return false;
  const { data, value } = plan;
  let system: SystemCallRecord | undefined;
  const parent = await net.submit({
    payer: sender.num,
    body: {
      contractCall: {
        contractID: contractPb(caller.num),
        gas: i64(GAS),
        ...(value > 0n ? { amount: i64(value) } : {}),
        functionParameters: data,
      },
    },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const run = htsSystemContract(net.ledger);
      evm.systemContract = run;
      const outcome = await evm
        .transact({
          sender: net.ledger.canonicalAddress(sender.num),
          contract: longZeroAddress(caller.num),
          create: false,
          data,
          gasLimit: GAS,
          value,
        })
        .finally(() => {
          evm.systemContract = undefined;
        });
      system = outcome.success ? run.calls[0] : undefined;
      noteResult(net.ledger, consensusNs, { contract: caller.num, sender: sender.num, gasLimit: GAS }, outcome);
      const sidecars = sidecarsOf(caller.num, sender.num, outcome, { gas: GAS, input: data, created: false });
      // The value reaches the contract only when the call succeeds; a creation's fee goes from it to 0.0.98.
      const transfers = new HbarTransfers();
      if (outcome.success) {
        transfers.add(sender.num, -value).add(caller.num, value);
        if (system) transfers.add(caller.num, -system.fee).add(FEE_COLLECTOR, system.fee);
      }
      return {
        transfers,
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee:
          outcome.gasUsed * GAS_PRICE_TINYBARS + tinybarsOf(PRICE_TINYCENTS.contractCallBase, net.ledger.exchangeRate),
        receipt: { contractID: contractPb(caller.num) },
        record: {
          contractCallResult: functionResult(caller.num, sender.num, outcome, {
            gas: GAS,
            functionParameters: data,
            created: false,
          }),
        },
        sidecars: system ? withSystemActions(sidecars, [system]) : sidecars,
      };
    },
  });
  if (system) await writeDispatchChildren(net, parent, sender.num, [system]);
  return true;
}

/**
 * A user creates a fungible token or an NFT collection (HAPI TokenCreate, the user its treasury) whose admin,
 * supply, freeze, KYC, wipe and pause keys are the contract's id, so only that contract's calls to 0x167 mint, burn,
 * freeze, grant KYC, wipe, pause, unpause and delete it; the contract manages a new one after it deleted one.
 */
async function createManagedToken(net: Network, caller: Contract, type: Token['type']): Promise<boolean> {
  const treasury = payerWith(net, 100n * HBAR);
  if (!treasury?.key) return false;
  const fungible = type === 'FUNGIBLE_COMMON';
  const word = net.random.words(1);
  const name = `${word[0]?.toUpperCase()}${word.slice(1)} Managed`;
  const symbol = `M${word.slice(0, 3).toUpperCase()}`;
  const initialSupply = fungible ? net.random.bigint(1_000n, 1_000_000_000n) : 0n;
  const contractKey = { contractID: contractPb(caller.num) };
  await net.submit({
    payer: treasury.num,
    body: {
      tokenCreation: {
        name,
        symbol,
        ...(fungible ? { initialSupply: i64(initialSupply) } : { tokenType: 1 }),
        treasury: accountPb(treasury.num),
        adminKey: contractKey,
        supplyKey: contractKey,
        freezeKey: contractKey,
        kycKey: contractKey,
        wipeKey: contractKey,
        pause_key: contractKey,
        autoRenewAccount: accountPb(treasury.num),
        autoRenewPeriod: { seconds: AUTO_RENEW_SECONDS },
      },
    },
    price: 'tokenCreate',
    execute: (): Outcome =>
      tokenCreated(net, {
        type,
        name,
        symbol,
        decimals: 0,
        treasury: treasury.num,
        totalSupply: initialSupply,
        nextSerial: 1n,
        manager: caller.num,
        frozen: new Set(),
        // A token's treasury starts with KYC granted and unfrozen; other accounts start without KYC.
        kycGranted: new Set([treasury.num]),
      }).outcome,
  });
  return true;
}

/**
 * A holder of a token the contract is associated with sends it some units, or one NFT (a plain HAPI transfer), so
 * that the contract has something to transfer; or the treasury of a token the contract manages sends it some, for it
 * to wipe, when the contract may receive them (associated, not frozen, granted KYC, the token not paused).
 */
async function fundCaller(net: Network, caller: Contract): Promise<boolean> {
  const { ledger, random } = net;
  const receivable = (t: Token) =>
    t.manager === caller.num &&
    !t.deleted &&
    !t.paused &&
    ledger.tokenBalances.has(`${caller.num}/${t.num}`) &&
    !t.frozen?.has(caller.num) &&
    (t.kycGranted?.has(caller.num) ?? false);
  const managed = [...ledger.tokens.values()].filter(receivable).map((t) => t.num);
  const pool = random.chance(0.35) ? ledger.fungibleTokens : ledger.nftTokens;
  const token =
    managed.length > 0 && random.chance(0.5)
      ? random.pick(managed)
      : pool.find(random, (t) => ledger.tokenBalances.has(`${caller.num}/${t}`));
  const holder =
    token === undefined
      ? undefined
      : ledger.associations
          .get(token)
          ?.find(
            random,
            (n) => n !== caller.num && ledger.tokenBalance(n, token) > 0n && ledger.account(n).balance >= 5n * HBAR,
          );
  if (token === undefined || holder === undefined) return false;
  const { type, decimals } = ledger.tokens.get(token) ?? { type: 'FUNGIBLE_COMMON', decimals: 0 };
  const transfers = new TokenTransfers();
  if (type === 'NON_FUNGIBLE_UNIQUE') {
    const serial = random.pick(ledger.nftsOwnedBy(holder, token, 10));
    transfers.nft(token, { serial, from: holder, to: caller.num });
  } else {
    const amount = random.bigint(1n, ledger.tokenBalance(holder, token));
    transfers.add(token, holder, -amount).add(token, caller.num, amount).expectDecimals(token, decimals);
  }
  await net.submit({
    payer: holder,
    body: { cryptoTransfer: { tokenTransfers: transfers.toPb(true) } },
    price: 'tokenTransfer',
    execute: (): Outcome => {
      applyTokenTransfers(net, transfers);
      return { tokens: transfers };
    },
  });
  return true;
}

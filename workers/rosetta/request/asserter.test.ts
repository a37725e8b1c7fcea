import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../config/config.ts';
import { rosettaSettings } from '../settings.ts';
import {
  assertAccountIdentifier,
  assertBlockIdentifier,
  assertDistinctCurrencies,
  assertNetwork,
  assertPartialBlockIdentifier,
  assertTransactionIdentifier,
} from './asserter.ts';

const settings = rosettaSettings(buildConfig({ rosetta: { network: 'TestNet' } }));
const withSubNetwork = rosettaSettings(
  buildConfig({
    rosetta: { network: 'testnet', feature: { subNetworkIdentifier: true } },
    common: { shard: 1, realm: 2 },
  }),
);

/** The code-0 Mesh error a check refuses with. */
function refusal(check: () => void): unknown {
  try {
    check();
  } catch (error) {
    return (error as { body?: unknown }).body;
  }
  return undefined;
}

describe("the Mesh SDK's request checks", () => {
  it('accepts the served network identifier, lowercased, with an empty metadata map', () => {
    expect(refusal(() => assertNetwork({ blockchain: 'Hedera', network: 'testnet' }, settings))).toBeUndefined();
    const sub = { network: 'shard 1 realm 2', metadata: {} };
    expect(
      refusal(() =>
        assertNetwork({ blockchain: 'Hedera', network: 'testnet', sub_network_identifier: sub }, withSubNetwork),
      ),
    ).toBeUndefined();
  });

  it.each([
    [undefined, 'network identifier null is invalid: NetworkIdentifier is nil'],
    [
      { blockchain: '', network: 'testnet' },
      'network identifier {"blockchain":"","network":"testnet"} is invalid: NetworkIdentifier.Blockchain is missing',
    ],
    [
      { blockchain: 'Hedera', network: '' },
      'network identifier {"blockchain":"Hedera","network":""} is invalid: NetworkIdentifier.Network is missing',
    ],
    [
      { blockchain: 'Hedera', network: 'mainnet' },
      'network identifier {"blockchain":"Hedera","network":"mainnet"} is not supported: requestNetwork is not supported',
    ],
    [
      { blockchain: 'hedera', network: 'testnet' },
      'network identifier {"blockchain":"hedera","network":"testnet"} is not supported: requestNetwork is not supported',
    ],
    [
      { blockchain: 'Hedera', network: 'testnet', sub_network_identifier: { network: 'shard 0 realm 0' } },
      'network identifier {"blockchain":"Hedera","network":"testnet","sub_network_identifier":{"network":"shard 0 realm 0"}} is not supported: requestNetwork is not supported',
    ],
  ])('refuses the network identifier %j', (network, message) => {
    expect(refusal(() => assertNetwork(network, settings))).toEqual({ code: 0, message, retriable: false });
  });

  it('wants the sub-network identifier when the feature is on', () => {
    expect(refusal(() => assertNetwork({ blockchain: 'Hedera', network: 'testnet' }, withSubNetwork))).toMatchObject({
      message:
        'network identifier {"blockchain":"Hedera","network":"testnet"} is not supported: requestNetwork is not supported',
    });
    expect(
      refusal(() =>
        assertNetwork(
          { blockchain: 'Hedera', network: 'testnet', sub_network_identifier: { network: '' } },
          withSubNetwork,
        ),
      ),
    ).toMatchObject({
      message:
        'network identifier {"blockchain":"Hedera","network":"testnet","sub_network_identifier":{"network":""}} is invalid: NetworkIdentifier.SubNetworkIdentifier.Network is missing',
    });
  });

  it('checks block, transaction and account identifiers in the words of the SDK', () => {
    const message = (check: () => void) => (refusal(check) as { message?: string } | undefined)?.message;
    expect(message(() => assertPartialBlockIdentifier(undefined))).toBe('PartialBlockIdentifier is nil');
    expect(message(() => assertPartialBlockIdentifier({ hash: '' }))).toBe('PartialBlockIdentifier hash is empty');
    expect(message(() => assertPartialBlockIdentifier({ index: -1n }))).toBe(
      'PartialBlockIdentifier index is negative',
    );
    expect(message(() => assertPartialBlockIdentifier({}))).toBeUndefined();
    expect(message(() => assertBlockIdentifier(undefined))).toBe(
      'block identifier null is invalid: BlockIdentifier is nil',
    );
    expect(message(() => assertBlockIdentifier({ index: 1n, hash: '' }))).toBe(
      'block identifier {"index":1,"hash":""} is invalid: BlockIdentifier.Hash is missing',
    );
    expect(message(() => assertBlockIdentifier({ index: -1n, hash: '0x1' }))).toBe(
      'block identifier {"index":-1,"hash":"0x1"} is invalid: BlockIdentifier.Index is negative',
    );
    expect(message(() => assertTransactionIdentifier({ hash: '' }))).toBe('TransactionIdentifier.Hash is missing');
    expect(message(() => assertAccountIdentifier({ address: '', metadata: {} }))).toBe(
      'account identifier {"address":""} is invalid: Account.Address is missing',
    );
    expect(message(() => assertAccountIdentifier({ address: '0.0.2', sub_account: { address: '' } }))).toBe(
      'account identifier {"address":"0.0.2","sub_account":{"address":""}} is invalid: Account.SubAccount.Address is missing',
    );
  });

  it('finds the second of two equal currencies, whatever the order of their metadata', () => {
    const hbar = { symbol: 'HBAR', decimals: 8, metadata: { issuer: 'Hedera', a: 1 } };
    expect(
      (
        refusal(() =>
          assertDistinctCurrencies([hbar, { ...hbar, metadata: { a: 1, issuer: 'Hedera' } }], 'duplicate currency'),
        ) as { message: string }
      ).message,
    ).toBe(
      'currency {"symbol":"HBAR","decimals":8,"metadata":{"a":1,"issuer":"Hedera"}} is invalid: duplicate currency',
    );
    expect(
      refusal(() => assertDistinctCurrencies([hbar, { ...hbar, decimals: 9 }], 'duplicate currency')),
    ).toBeUndefined();
  });
});

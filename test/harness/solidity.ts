import { readFileSync } from 'node:fs';
import { keccak_256 } from '@noble/hashes/sha3.js';
import solc from 'solc';

/** A contract compiled by solc-js: init code and runtime code as bytes, selectors by signature. */
export interface CompiledContract {
  readonly initcode: Uint8Array;
  readonly runtime: Uint8Array;
  readonly selectors: Readonly<Record<string, string>>;
}

const compiled = new Map<string, Readonly<Record<string, CompiledContract>>>();

/**
 * The contracts of `test/contracts/<file>`, compiled offline by solc-js for Cancun with the optimizer (200 runs), once
 * per test file.
 */
export function compileContracts(file: string): Readonly<Record<string, CompiledContract>> {
  const known = compiled.get(file);
  if (known) return known;
  const content = readFileSync(new URL(`../contracts/${file}`, import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<
      string,
      Record<
        string,
        {
          evm: {
            bytecode: { object: string };
            deployedBytecode: { object: string };
            methodIdentifiers: Record<string, string>;
          };
        }
      >
    >;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const contracts = Object.fromEntries(
    Object.entries(output.contracts[file] ?? {}).map(([name, { evm }]) => [
      name,
      {
        initcode: Buffer.from(evm.bytecode.object, 'hex'),
        runtime: Buffer.from(evm.deployedBytecode.object, 'hex'),
        selectors: evm.methodIdentifiers,
      },
    ]),
  );
  compiled.set(file, contracts);
  return contracts;
}

/** `contract`'s call data for `signature` with ABI words (32 bytes each) as arguments. */
export function encodeCall(
  contract: CompiledContract,
  signature: string,
  words: readonly Uint8Array[] = [],
): Uint8Array {
  const selector = contract.selectors[signature];
  if (!selector) throw new Error(`no function ${signature}`);
  return Buffer.concat([Buffer.from(selector, 'hex'), ...words]);
}

/** The EIP-1014 address of a CREATE2 by `creator` with `salt` and `initcode`. */
export function create2Address(creator: Uint8Array, salt: Uint8Array, initcode: Uint8Array): Uint8Array {
  const hash = keccak_256(Buffer.concat([Buffer.from([0xff]), creator, salt, keccak_256(initcode)]));
  return hash.slice(12);
}

/**
 * Whether a system contract runs in a static frame (STATICCALL, or below one). @ethereumjs hands a precompile only
 * its input, so the EVM's `beforeMessage` event, which fires for each frame right before it runs, records the
 * latest one: when a precompile runs, that is its own frame.
 */
import type { EVM, EVMInterface, Message } from '@ethereumjs/evm';

const latestFrames = new WeakMap<object, Message>();

/** Makes the system contracts of `evm` see their frames; without it every frame counts as not static. */
export function trackCallFrames(evm: EVM): void {
  evm.events.on('beforeMessage', (message: Message) => {
    latestFrames.set(evm, message);
  });
}

export const isStaticFrame = (evm: EVMInterface): boolean => latestFrames.get(evm)?.isStatic === true;

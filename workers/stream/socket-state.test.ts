import { describe, expect, it } from 'vitest';
import type { StreamItem } from './item.ts';
import { through } from './position.ts';
import { deliverBatch, type SocketState, sendItems } from './socket-state.ts';
import type { Subscription } from './subscription.ts';

const row = (timestamp: bigint, index = 0, topics?: (string | null)[]): StreamItem => ({
  timestamp,
  index,
  json: `${timestamp}/${index}`,
  utf8Json: `text ${timestamp}`,
  ...(topics ? { topics } : {}),
});

const socket = (subscription: Subscription, position: SocketState['position'], acked = 0): SocketState => ({
  subscription,
  key: 'k',
  position,
  live: true,
  sent: 0,
  acked,
});

const blocks: Subscription = { kind: 'blocks' };

function deliver(state: SocketState, from: bigint, to: bigint, items: StreamItem[], base?: bigint, maxBuffer = 100) {
  const sent: string[] = [];
  const delivery = deliverBatch(state, { from, to, items: { k: items } }, base, maxBuffer, (text) => sent.push(text));
  return { delivery, sent };
}

describe('deliverBatch', () => {
  it('sends the rows after the position, once, and moves the position to the last', () => {
    const state = socket(blocks, through(10n));
    expect(deliver(state, 10n, 20n, [row(10n), row(12n), row(15n)])).toEqual({
      delivery: 'sent',
      sent: ['12/0', '15/0'],
    });
    expect(state.position).toEqual(through(15n));
  });

  it('takes a live socket to be where the last batch ended, when its stored position is older', () => {
    const state = socket(blocks, through(10n));
    expect(deliver(state, 20n, 30n, [row(25n)], 20n)).toEqual({ delivery: 'sent', sent: ['25/0'] });
  });

  it('sends nothing to a socket behind the batch (a batch it missed): it reads the gap as history', () => {
    const state = socket(blocks, through(10n));
    expect(deliver(state, 20n, 30n, [row(25n)])).toEqual({ delivery: 'behind', sent: [] });
    expect(deliver(state, 20n, 30n, [row(25n)], 15n)).toEqual({ delivery: 'behind', sent: [] });
  });

  it('answers nothing when no row is for the socket', () => {
    expect(deliver(socket(blocks, through(10n)), 10n, 20n, [])).toEqual({ delivery: 'nothing', sent: [] });
  });

  it('stops where the buffer is full and keeps the position at the last row sent', () => {
    const state = socket(blocks, through(10n), 0);
    expect(deliver(state, 10n, 20n, [row(11n), row(12n), row(13n)], undefined, 2)).toEqual({
      delivery: 'full',
      sent: ['11/0', '12/0'],
    });
    expect(state.position).toEqual(through(12n));
    expect(state.sent).toBe(2);
  });
});

describe('sendItems', () => {
  it('resumes inside a timestamp for logs, and applies their topic filters', () => {
    const state = socket({ kind: 'logs', contractId: 5n, topics: [['aa'], [], [], []] }, { timestamp: 10n, index: 1 });
    const sent: string[] = [];
    const items = [row(10n, 1, ['aa']), row(10n, 2, ['aa']), row(10n, 3, ['bb']), row(11n, 0, ['aa'])];
    expect(sendItems(state, items, 100, (text) => sent.push(text))).toBe(true);
    expect(sent).toEqual(['10/2', '11/0']);
    expect(state.position).toEqual({ timestamp: 11n, index: 0 });
  });

  it('writes topic messages as text for a subscriber that asked for utf-8', () => {
    const state = socket({ kind: 'topic', topicId: 7n, utf8: true }, through(0n));
    const sent: string[] = [];
    sendItems(state, [row(3n)], 100, (text) => sent.push(text));
    expect(sent).toEqual(['text 3']);
  });
});

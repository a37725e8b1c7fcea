import { z } from 'zod';
import type { Position } from './position.ts';
import type { Subscription } from './subscription.ts';

/** What the Worker hands a StreamHub with an upgrade it has validated: the subscription and where it resumes. */
export interface Opening {
  readonly subscription: Subscription;
  /** Absent: from the newest record file on. */
  readonly resume?: Position;
}

/** The request header that carries an `Opening` from the Worker to its hub (never from a client: the hub has no URL). */
export const OPENING_HEADER = 'x-stream-opening';

const int = z.string().regex(/^\d+$/).transform(BigInt);
const openingSchema = z.object({
  subscription: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('topic'), topicId: int, utf8: z.boolean() }),
    z.object({ kind: z.literal('blocks') }),
    z.object({ kind: z.literal('account'), accountId: int }),
    z.object({ kind: z.literal('logs'), contractId: int, topics: z.array(z.array(z.string())) }),
  ]),
  resume: z.object({ timestamp: int, index: z.number().int().nonnegative() }).optional(),
});

/** Ids and timestamps as decimal strings: JSON numbers would lose 64-bit values. */
export function encodeOpening({ subscription, resume }: Opening): string {
  const ids =
    subscription.kind === 'topic'
      ? { topicId: String(subscription.topicId), utf8: subscription.utf8 }
      : subscription.kind === 'account'
        ? { accountId: String(subscription.accountId) }
        : subscription.kind === 'logs'
          ? { contractId: String(subscription.contractId), topics: subscription.topics }
          : {};
  return JSON.stringify({
    subscription: { kind: subscription.kind, ...ids },
    ...(resume ? { resume: { timestamp: String(resume.timestamp), index: resume.index } } : {}),
  });
}

export const decodeOpening = (text: string): Opening => openingSchema.parse(JSON.parse(text));

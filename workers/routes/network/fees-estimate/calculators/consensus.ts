import { countKeyField, countKeyList } from '../keys.ts';
import { bytesField, fieldCount, messageField } from '../wire.ts';
import { addExtra, entityId, type ServiceCalculator } from './common.ts';

/** Admin, fee schedule and submit keys; custom fees cost one flat extra. */
export const consensusCreateTopic: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', countKeyField(op, 2) + countKeyField(op, 8) + countKeyField(op, 3));
  if (fieldCount(op, 10) > 0) addExtra(context, 'CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE', 1);
};

/** Admin, fee schedule and submit keys, and every key of the fee-exempt list. */
export const consensusUpdateTopic: ServiceCalculator = (op, context) => {
  const exempt = messageField(op, 11);
  const keys =
    countKeyField(op, 6) + countKeyField(op, 10) + countKeyField(op, 7) + (exempt ? countKeyList(exempt) : 0n);
  addExtra(context, 'KEYS', keys);
};

/**
 * The message's bytes, priced at one rate for a topic without custom fees and at another (plus a flat extra) for
 * one with them. Only STATE mode knows the topic: INTRINSIC prices every topic as one without custom fees.
 */
export const consensusSubmitMessage: ServiceCalculator = async (op, context) => {
  const size = bytesField(op, 2)?.length ?? 0;
  const topic = messageField(op, 1);
  const topicId = topic ? entityId(topic) : undefined;
  const withCustomFees =
    context.state !== undefined && topicId !== undefined && (await context.state.topicHasCustomFees(topicId));
  if (withCustomFees) {
    addExtra(context, 'CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE', 1);
    addExtra(context, 'CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES', size);
  } else {
    addExtra(context, 'CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES', size);
  }
};

import { openGrpcSubscribers } from '../../grpc/bench-subscribers.ts';
import type { BenchTargets, Report, SubscriberKind, Subscribers } from './subscribers.ts';

/**
 * gRPC subscribers of `ConsensusService.subscribeTopic` (docs/adr/0030-grpc-api.md), spread over the busiest topics
 * as the WebSocket subscribers' topic share is, following live messages only.
 */
export const grpcSubscribers: SubscriberKind = {
  name: 'grpc',
  async open(targets: BenchTargets, count: number, report: Report): Promise<Subscribers> {
    if (!targets.grpcAddress) throw new Error('grpc subscribers need the gRPC API, which this bench did not start');
    if (targets.topics.length === 0) throw new Error('grpc subscribers need a topic with messages');
    const perTopic = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const topic = targets.topics[i % targets.topics.length] as string;
      perTopic.set(topic, (perTopic.get(topic) ?? 0) + 1);
    }
    const opened = [...perTopic].map(([topic, subscribers]) =>
      openGrpcSubscribers({
        address: targets.grpcAddress as string,
        // Shard and realm are 0 on the simulated network: `0.0.n` is entity number n.
        topicNum: BigInt(topic.split('.')[2] as string),
        subscribers,
        onDelivery: (delivery) => report(delivery.receivedAtMs, delivery.consensusTimestampNs),
      }),
    );
    return {
      async close() {
        for (const subscribers of opened) subscribers.close();
        const failed = opened.flatMap((subscribers) => subscribers.errors);
        if (failed.length > 0) console.error(`bench: ${failed.length} gRPC calls failed, first: ${failed[0]?.details}`);
      },
    };
  },
};

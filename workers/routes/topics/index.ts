import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { topicMessageRoutes } from './messages.ts';
import { topicRoutes as topicByIdRoutes } from './topic.ts';

/** `/api/v1/topics`: topic messages (the reference's JavaScript process) and the topic itself (its Java process). */
export const topicRoutes = new Hono<AppEnv>().route('/', topicMessageRoutes).route('/', topicByIdRoutes);

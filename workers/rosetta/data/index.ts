import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../../context.ts';
import { metadataRequestSchema, networkRequestSchema } from '../request/schemas.ts';
import { networkRoutes } from './network.ts';

/** The Data API (rosetta/app/services: network, block, account and mempool services). */
export const dataRoutes = new Hono<AppEnv>().route('/', networkRoutes);

/** The Data API's reads the edge cache may answer, by path, with the request each decodes into (its key). */
export const CACHEABLE_DATA_REQUESTS: ReadonlyMap<string, z.ZodObject> = new Map<string, z.ZodObject>([
  ['/network/list', metadataRequestSchema],
  ['/network/options', networkRequestSchema],
]);

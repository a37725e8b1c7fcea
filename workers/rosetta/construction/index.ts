import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';

/**
 * The Construction API (`/construction/derive`, `/preprocess`, `/metadata`, `/payloads`, `/parse`, `/combine`,
 * `/hash`, `/submit`), mounted at `/rosetta/construction`. It reads its requests with `readRequest`
 * (`../request/read.ts`), checks them with the SDK's checks (`../request/asserter.ts`), answers with `meshResponse`
 * and throws `RosettaError`s; the Rosetta sub-app's edge layer and error handler are around it.
 */
export const constructionRoutes = new Hono<AppEnv>();

import type { Config } from '../config/config.ts';
import { readEnvSettings } from '../config/env-settings.ts';
import type { Env } from '../env.ts';

let config: Config | undefined;

/**
 * The settings the stream objects work with, read from their vars once per isolate: an alarm or a tail's call
 * carries no request, so they read them as the deployed Worker does (the Worker reports ignored variables).
 */
export function streamConfig(env: Env): Config {
  config ??= readEnvSettings(env).config;
  return config;
}

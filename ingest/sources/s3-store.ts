/**
 * An ObjectStore over the S3 API (AWS S3, and Google Cloud Storage's S3-compatible XML API), requests
 * signed with SigV4. The public Hiero buckets are requester-pays, so every request says so.
 *
 * Configuration follows the usual environment: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN),
 * AWS_REGION, and AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for another endpoint. `gs://` defaults to
 * https://storage.googleapis.com (HMAC keys in the same variables).
 */
import { AwsClient } from 'aws4fetch';
import { isNetworkFailure, SourceUnavailableError } from '../transient-errors.ts';
import type { ObjectStore } from './object-store.ts';

export interface S3StoreOptions {
  readonly bucket: string;
  readonly prefix: string;
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly requesterPays: boolean;
  readonly description: string;
}

/** `s3://bucket/prefix` or `gs://bucket/prefix` with credentials and endpoint from the environment. */
export function s3OptionsFromUrl(url: string, env: NodeJS.ProcessEnv = process.env): S3StoreOptions {
  const match = /^(s3|gs):\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match?.[1] || !match[2]) throw new Error(`not a bucket URL: ${url}`);
  const gcs = match[1] === 'gs';
  const prefix = match[3] ? (match[3].endsWith('/') ? match[3] : `${match[3]}/`) : '';
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? (gcs ? 'auto' : 'us-east-1');
  const endpoint =
    env.AWS_ENDPOINT_URL_S3 ??
    env.AWS_ENDPOINT_URL ??
    (gcs ? 'https://storage.googleapis.com' : `https://s3.${region}.amazonaws.com`);
  return {
    bucket: match[2],
    prefix,
    endpoint: endpoint.replace(/\/$/, ''),
    region,
    accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    requesterPays: env.HIERO_MIRROR_IMPORTER_DOWNLOADER_ALLOWANONYMOUSACCESS !== 'true',
    description: url,
  };
}

function xmlValues(xml: string, tag: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(decodeXml(m[1] ?? ''));
  return out;
}

function decodeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}

export class S3Store implements ObjectStore {
  readonly description: string;
  private readonly options: S3StoreOptions;
  private readonly client: AwsClient | undefined;

  constructor(options: S3StoreOptions) {
    this.options = options;
    this.description = options.description;
    // Without credentials requests go unsigned (public buckets, local test servers).
    this.client = options.accessKeyId
      ? new AwsClient({
          accessKeyId: options.accessKeyId,
          secretAccessKey: options.secretAccessKey,
          ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
          service: 's3',
          region: options.region,
        })
      : undefined;
  }

  /**
   * A request to the bucket. A network failure, a throttle (429) or a server error (5xx) is a
   * `SourceUnavailableError`, which the ingest waits out; any other status is for the caller to judge.
   */
  private async request(url: string): Promise<Response> {
    const headers: Record<string, string> = this.options.requesterPays ? { 'x-amz-request-payer': 'requester' } : {};
    let response: Response;
    try {
      response = this.client ? await this.client.fetch(url, { headers }) : await fetch(url, { headers });
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : '';
      throw new SourceUnavailableError(`${this.description}: ${(error as Error).message}${cause ? ` (${cause})` : ''}`);
    }
    if (response.status === 429 || response.status >= 500) {
      const body = await response.text().catch(() => '');
      throw new SourceUnavailableError(
        `${this.description}: HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ''}`,
      );
    }
    return response;
  }

  private bucketUrl(): string {
    return `${this.options.endpoint}/${encodeURIComponent(this.options.bucket)}`;
  }

  private async listObjects(params: Record<string, string>): Promise<string> {
    const query = new URLSearchParams({ 'list-type': '2', ...params });
    const response = await this.request(`${this.bucketUrl()}?${query}`);
    if (!response.ok)
      throw new Error(`${this.description}: list failed with HTTP ${response.status}: ${await response.text()}`);
    return response.text();
  }

  async list(prefix: string, startAfter: string, limit: number): Promise<string[]> {
    const base = this.options.prefix;
    const xml = await this.listObjects({
      prefix: base + prefix,
      'start-after': startAfter ? base + startAfter : '',
      'max-keys': String(limit),
    });
    return xmlValues(xml, 'Key')
      .map((key) => key.slice(base.length))
      .sort();
  }

  async listFolders(prefix: string): Promise<string[]> {
    const base = this.options.prefix;
    const xml = await this.listObjects({ prefix: base + prefix, delimiter: '/' });
    const prefixes = xml.match(/<CommonPrefixes>[\s\S]*?<\/CommonPrefixes>/g) ?? [];
    return prefixes.flatMap((block) => xmlValues(block, 'Prefix')).map((p) => p.slice(base.length));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const path = (this.options.prefix + key).split('/').map(encodeURIComponent).join('/');
    const response = await this.request(`${this.bucketUrl()}/${path}`);
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`${this.description}: get ${key} failed with HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

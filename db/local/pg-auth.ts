import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The password message of Postgres' md5 method: `md5` + md5(md5(password + user) + salt) in hex. */
export function md5Password(user: string, password: string, salt: Uint8Array): string {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex');
  return `md5${createHash('md5').update(inner).update(salt).digest('hex')}`;
}

const hmac = (key: Uint8Array, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/**
 * The client's side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as Postgres runs it: no channel binding, the user name
 * left empty (Postgres takes the startup message's).
 */
export class ScramClient {
  readonly #nonce = randomBytes(18).toString('base64');
  readonly #password: string;
  #firstBare = '';
  #serverSignature = Buffer.alloc(0);

  constructor(password: string) {
    this.#password = password;
  }

  /** The SASLInitialResponse's data. */
  first(): string {
    this.#firstBare = `n=,r=${this.#nonce}`;
    return `n,,${this.#firstBare}`;
  }

  /** The SASLResponse's data, from the server's first message (`r=…,s=…,i=…`). */
  final(serverFirst: string): string {
    const attributes = new Map(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
    const nonce = attributes.get('r') ?? '';
    const salt = Buffer.from(attributes.get('s') ?? '', 'base64');
    const iterations = Number(attributes.get('i'));
    if (!nonce.startsWith(this.#nonce) || salt.length === 0 || !(iterations > 0)) {
      throw new Error('SCRAM: the server sent an invalid first message');
    }
    const salted = pbkdf2Sync(this.#password.normalize('NFKC'), salt, iterations, 32, 'sha256');
    const clientKey = hmac(salted, 'Client Key');
    const withoutProof = `c=biws,r=${nonce}`;
    const authMessage = `${this.#firstBare},${serverFirst},${withoutProof}`;
    const signature = hmac(sha256(clientKey), authMessage);
    const proof = Buffer.from(clientKey.map((byte, i) => byte ^ (signature[i] as number)));
    this.#serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    return `${withoutProof},p=${proof.toString('base64')}`;
  }

  /** Checks the server's final message (`v=…`): a server that does not know the password cannot sign it. */
  verify(serverFinal: string): void {
    const signature = Buffer.from(/(?:^|,)v=([^,]*)/.exec(serverFinal)?.[1] ?? '', 'base64');
    if (signature.length !== this.#serverSignature.length || !timingSafeEqual(signature, this.#serverSignature)) {
      throw new Error('SCRAM: the server signature does not match');
    }
  }
}

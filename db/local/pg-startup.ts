import net from 'node:net';
import tls from 'node:tls';
import { md5Password, ScramClient } from './pg-auth.ts';
import {
  cstrings,
  errorFields,
  message,
  PgServerError,
  type PgTarget,
  PROTOCOL_3,
  SSL_REQUEST,
} from './pg-messages.ts';

/**
 * A socket to the target, over TLS when its `sslMode` asks, authenticated (trust, password, md5, SCRAM-SHA-256) and
 * past the server's first ReadyForQuery; paused, so that nothing the server sends next is read before its reader
 * listens.
 */
export async function openSession(target: PgTarget): Promise<net.Socket> {
  const socket = await connectSocket(target);
  try {
    await startup(socket, target);
  } catch (error) {
    socket.destroy();
    throw error;
  }
  return socket;
}

async function connectSocket(target: PgTarget): Promise<net.Socket> {
  const socket = target.socketPath
    ? net.connect(target.socketPath)
    : net.connect(target.port ?? 5432, target.host ?? 'localhost');
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const mode = target.sslMode ?? 'disable';
  if (mode === 'disable' || target.socketPath) return socket;
  const request = Buffer.alloc(8);
  request.writeInt32BE(8, 0);
  request.writeInt32BE(SSL_REQUEST, 4);
  socket.write(request);
  const answer = await new Promise<number>((resolve, reject) => {
    socket.once('data', (data: Buffer) => resolve(data[0] as number));
    socket.once('error', reject);
  });
  if (answer !== 0x53) {
    if (mode === 'prefer' || mode === 'allow') return socket;
    socket.destroy();
    throw new Error('the database does not accept TLS connections');
  }
  const secure = tls.connect({
    socket,
    servername: net.isIP(target.host ?? '') ? undefined : target.host,
    rejectUnauthorized: mode === 'verify-ca' || mode === 'verify-full',
  });
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  });
  return secure;
}

/** The startup message and authentication, up to the first ReadyForQuery. */
function startup(socket: net.Socket, target: PgTarget): Promise<void> {
  const params = ['user', target.user, 'database', target.database, 'client_encoding', 'UTF8'];
  if (target.applicationName) params.push('application_name', target.applicationName);
  const length = 8 + params.reduce((sum, p) => sum + Buffer.byteLength(p) + 1, 0) + 1;
  const start = Buffer.alloc(length);
  start.writeInt32BE(length, 0);
  start.writeInt32BE(PROTOCOL_3, 4);
  let at = 8;
  for (const p of params) at += start.write(p, at) + 1;
  socket.write(start);
  let scram: ScramClient | undefined;
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    // The error listener stays: until the connection adds its own, an error must not go unhandled.
    const done = () => {
      socket.off('data', onData);
      // Paused until the connection listens: bytes after ReadyForQuery must not be emitted to nobody.
      socket.pause();
    };
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const type = pending[0];
        const body = pending.subarray(5, 1 + pending.readInt32BE(1));
        pending = pending.subarray(1 + pending.readInt32BE(1));
        try {
          if (type === 0x45) return fail(new PgServerError(errorFields(body)));
          if (type === 0x5a) {
            done();
            if (pending.length) socket.unshift(pending);
            return resolve();
          }
          if (type === 0x52) scram = authenticate(socket, target, body, scram);
        } catch (error) {
          return fail(error as Error);
        }
      }
    };
    socket.on('data', onData);
    socket.on('error', fail);
  });
}

/** Answers one Authentication request; returns the SCRAM exchange in progress, if any. */
function authenticate(
  socket: net.Socket,
  target: PgTarget,
  body: Buffer,
  scram?: ScramClient,
): ScramClient | undefined {
  const password = (text: string) => socket.write(cstrings(0x70, [text]).buffer);
  switch (body.readInt32BE(0)) {
    case 0:
      return undefined;
    case 3:
      password(target.password);
      return undefined;
    case 5:
      password(md5Password(target.user, target.password, body.subarray(4, 8)));
      return undefined;
    case 10: {
      if (!body.subarray(4).toString().split('\0').includes('SCRAM-SHA-256')) {
        throw new Error('the database offers no SASL mechanism the proxy speaks (SCRAM-SHA-256)');
      }
      const client = new ScramClient(target.password);
      const data = Buffer.from(client.first());
      const { buffer, offset } = cstrings(0x70, ['SCRAM-SHA-256'], 4 + data.length);
      buffer.writeInt32BE(data.length, offset);
      data.copy(buffer, offset + 4);
      socket.write(buffer);
      return client;
    }
    case 11: {
      if (!scram) throw new Error('SCRAM: a continuation without a start');
      const data = Buffer.from(scram.final(body.subarray(4).toString()));
      const buffer = message(0x70, 4 + data.length);
      data.copy(buffer, 5);
      socket.write(buffer);
      return scram;
    }
    case 12:
      scram?.verify(body.subarray(4).toString());
      return undefined;
    default:
      throw new Error(
        `the database asks for an authentication method the proxy does not speak (${body.readInt32BE(0)})`,
      );
  }
}

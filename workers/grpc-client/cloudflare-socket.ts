/**
 * Sockets for `unaryCall` in the Worker: a plain TCP connection from `cloudflare:sockets`. Tests run the call on
 * Node sockets instead (this module is only imported by the Worker's routes).
 */
import { connect } from 'cloudflare:sockets';
import type { SocketOpener } from './unary-call.ts';

export const openTcpSocket: SocketOpener = (host, port) => {
  const socket = connect({ hostname: host, port }, { allowHalfOpen: false });
  return {
    readable: socket.readable,
    writable: socket.writable,
    opened: socket.opened,
    close: () => socket.close(),
  };
};

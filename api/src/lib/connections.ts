import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Connection {
  /** When it was accepted, or when its last answer was done. */
  restingSince: number;
  /** Bytes read by then: more read since means a request has begun to arrive. */
  bytesAtRest: number;
  /** Requests received and not yet answered. */
  open: number;
}

/**
 * Which of a server's connections are resting between requests, so a shutdown closes only those.
 * Node's own closeIdleConnections also closes a connection accepted a moment ago whose request is
 * still unread in the kernel (or on its way): the client sent it before the signal and gets a
 * reset. Here a connection rests only once it has read nothing new for `graceMs`.
 */
export function trackConnections(server: Server, graceMs: number): { closeResting: () => void } {
  const connections = new Map<Socket, Connection>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { restingSince: Date.now(), bytesAtRest: 0, open: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.open += 1;
    res.once('close', () => {
      connection.open -= 1;
      connection.restingSince = Date.now();
      connection.bytesAtRest = req.socket.bytesRead;
    });
  });
  const closeResting = () => {
    const now = Date.now();
    for (const [socket, c] of connections) {
      const resting = c.open === 0 && socket.bytesRead === c.bytesAtRest && now - c.restingSince >= graceMs;
      if (resting) socket.destroy();
    }
  };
  return {
    // After one more pass of the event loop's I/O phase, so bytes the kernel already holds for a
    // connection are read (and its request begun) before the connection is judged.
    closeResting: () => void setImmediate(closeResting),
  };
}

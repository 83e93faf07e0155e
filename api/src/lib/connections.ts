import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What the sweep last saw of a connection. */
interface Seen {
  /** Bytes it had read then. */
  bytes: number;
  /** Since when it has read nothing and had no answer under way. */
  since: number;
}

/** The answer a connection is busy with: Node's own idle sweep reads the same field. */
type HttpSocket = Socket & { _httpMessage?: { finished?: boolean } | null };

/**
 * Which of a server's connections are resting, so a shutdown closes only those. Node's own
 * closeIdleConnections also closes a connection accepted a moment ago whose request is still
 * unread in the kernel (or on its way): its client sent it before the signal and gets a reset.
 * Here a connection rests once it has read nothing and had no answer under way for `graceMs`.
 * Only connections are watched, not requests, so serving costs nothing more.
 */
export function trackConnections(
  server: Server,
  graceMs: number,
  clock: () => number = Date.now,
): { closeResting: () => void } {
  const seen = new Map<HttpSocket, Seen>();
  server.on('connection', (socket: HttpSocket) => {
    seen.set(socket, { bytes: 0, since: clock() });
    socket.once('close', () => seen.delete(socket));
  });
  const closeResting = () => {
    const now = clock();
    for (const [socket, last] of seen) {
      const answering = socket._httpMessage ? !socket._httpMessage.finished : false;
      if (answering || socket.bytesRead !== last.bytes)
        seen.set(socket, { bytes: socket.bytesRead, since: now });
      else if (now - last.since >= graceMs) socket.destroy();
    }
  };
  return {
    // After one more pass of the event loop's I/O phase, so bytes the kernel already holds for a
    // connection are read (and its request begun) before the connection is judged.
    closeResting: () => void setImmediate(closeResting),
  };
}

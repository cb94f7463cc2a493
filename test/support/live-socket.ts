// test/support/live-socket.ts — a client of the live channel for tests and the live bench: opens
// a WebSocket with the token in Sec-WebSocket-Protocol, keeps every frame it receives, and waits
// for the frames a test expects.
import WebSocket from 'ws';

export interface Frame {
  type: string;
  [field: string]: unknown;
}

export interface LiveSocket {
  ws: WebSocket;
  /** Every frame received, in order. */
  frames: Frame[];
  send(frame: unknown): void;
  /** The first frame received from now on (or already, past `from`) that passes `match`. */
  next(match: (f: Frame) => boolean, timeoutMs?: number, from?: number): Promise<Frame>;
  /** Sends `frame` and waits for the first frame that follows it. */
  ask(frame: unknown, timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

/** Opens a socket; rejects with the HTTP status of a refused upgrade (e.g. "401"). */
export function openLive(url: string, token: string, protocols?: string[]): Promise<LiveSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols ?? ['weibo-live.v1', `bearer.${token}`]);
    const frames: Frame[] = [];
    const waiters: { from: number; match: (f: Frame) => boolean; done: (f: Frame) => void }[] = [];
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      for (const w of [...waiters]) {
        if (frames.length - 1 >= w.from && w.match(frame)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(frame);
        }
      }
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
    ws.once('error', reject);
    ws.once('open', () => {
      const socket: LiveSocket = {
        ws,
        frames,
        send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
        next: (match, timeoutMs = 10_000, from = frames.length) =>
          new Promise((done, fail) => {
            const found = frames.slice(from).find(match);
            if (found) return done(found);
            const timer = setTimeout(
              () =>
                fail(
                  new Error(
                    `no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.slice(from))} ` +
                      `(socket ${['connecting', 'open', 'closing', 'closed'][ws.readyState]}, ${frames.length} frame(s) since it opened)`,
                  ),
                ),
              timeoutMs,
            );
            waiters.push({
              from,
              match,
              done: (f) => {
                clearTimeout(timer);
                done(f);
              },
            });
          }),
        ask: (frame, timeoutMs) => {
          const from = frames.length;
          socket.send(frame);
          return socket.next((f) => f.type !== 'event', timeoutMs, from);
        },
        close: () =>
          new Promise((done) => {
            if (ws.readyState === WebSocket.CLOSED) return done();
            ws.once('close', () => done());
            ws.close();
          }),
      };
      resolve(socket);
    });
  });
}

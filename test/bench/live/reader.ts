// test/bench/live/reader.ts — one bench reader's socket, a client of the live channel as the
// protocol asks (docs/api.md, "Live"): it opens with the token in Sec-WebSocket-Protocol, sends
// `resume` right after every open (with its last applied position on a reconnect), applies a
// pushed event directly when its sequence number is the next one, and resumes from its last
// position on a gap. It keeps the moment every post arrived and every post it applied, so the
// bench can say when the last socket had a post and whether any was lost or applied twice; and
// the same of the conversation events telling it of a new private message (the messages phase).
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

interface PostEvent {
  kind: string;
  postId?: string;
  /** A conversation event: the other person, the message's seq, what changed. */
  peer?: string;
  seq?: number;
  change?: string;
  position: string;
}

/** A conversation's new message, as the bench keys it: `<peer>#<seq>`. */
export const messageKey = (peer: string, seq: number) => `${peer}#${seq}`;

type Frame =
  | { type: 'event'; event: PostEvent }
  | { type: 'events'; events: PostEvent[]; position: string; reset: boolean }
  | { type: string; [k: string]: unknown };

/** The sequence number of a position (`<n>.<t>.<mac>`). */
const seq = (position: string) => Number(position.split('.')[0]);

export class BenchReader {
  private ws: WebSocket | undefined;
  /** The whole opaque text of the last applied position. */
  position: string | undefined;
  /** Its sequence number. */
  n = 0;
  /** Every post applied, in order (an id twice is a post applied twice). */
  readonly applied: string[] = [];
  /** When each post first reached this socket (performance.now()), pushed or in a resume answer. */
  readonly arrivedAt = new Map<string, number>();
  /** Every conversation message event applied (`<peer>#<seq>`, change 'message'; twice: doubled). */
  readonly messagesApplied: string[] = [];
  /** When each conversation message event first reached this socket (performance.now()). */
  readonly messageArrivedAt = new Map<string, number>();
  /** Pushed events already applied (a hint that came after a resume had them): ignored. */
  staleHints = 0;
  /** Gaps met (a pushed event past the next one): each sent a resume. */
  gaps = 0;
  resets = 0;
  errors: string[] = [];
  private resumeInFlight: { resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | undefined;
  private resumeAgain = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly handle: string,
    private readonly token: string,
    private readonly url: string,
  ) {}

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Opens the socket and resumes (from the last position, if any): the open and the answer, in ms. */
  async connect(timeoutMs: number): Promise<{ openMs: number; resumeMs: number }> {
    const t0 = performance.now();
    const ws = new WebSocket(this.url, ['weibo-live.v1', `bearer.${this.token}`], { handshakeTimeout: timeoutMs });
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    const opened = performance.now();
    ws.on('message', (data) => this.receive(String(data)));
    ws.on('error', (err) => this.errors.push(`socket error: ${err.message}`));
    await this.resume(timeoutMs);
    return { openMs: opened - t0, resumeMs: performance.now() - opened };
  }

  /** Sends `resume` from the last applied position and waits for the answer (applied on arrival). */
  resume(timeoutMs: number): Promise<void> {
    if (this.resumeInFlight) {
      this.resumeAgain = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.resumeInFlight = undefined;
        reject(new Error(`${this.handle}: no answer to resume within ${timeoutMs} ms`));
      }, timeoutMs);
      this.resumeInFlight = { resolve, reject, timer };
      this.ws!.send(JSON.stringify(this.position ? { action: 'resume', after: this.position } : { action: 'resume' }));
    });
  }

  /** Resolves once `done()` holds (checked on every frame), or rejects after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`${this.handle}: ${what} not within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.add(check);
    });
  }

  close(timeoutMs = 5_000): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, timeoutMs);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close();
    });
  }

  /** Drops the socket at once, without a closing handshake. */
  terminate(): void {
    this.ws?.terminate();
  }

  private receive(text: string): void {
    const now = performance.now();
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      this.errors.push(`not JSON: ${text.slice(0, 200)}`);
      return;
    }
    if (frame.type === 'event') {
      const event = (frame as { event: PostEvent }).event;
      this.arrived(event, now);
      const n = seq(event.position);
      if (n === this.n + 1 && !this.resumeInFlight) this.apply(event);
      else if (n <= this.n) this.staleHints++;
      else {
        this.gaps++;
        void this.resume(30_000).catch((err: Error) => this.errors.push(err.message));
      }
    } else if (frame.type === 'events') {
      const answer = frame as Extract<Frame, { type: 'events' }>;
      for (const e of answer.events) this.arrived(e, now);
      if (answer.reset) this.resets++;
      // Events past what was applied meanwhile, in order; then where the client stands.
      for (const e of answer.events) if (seq(e.position) > this.n) this.apply(e);
      if (seq(answer.position) >= this.n) {
        this.position = answer.position;
        this.n = seq(answer.position);
      }
      const inFlight = this.resumeInFlight;
      this.resumeInFlight = undefined;
      if (inFlight) {
        clearTimeout(inFlight.timer);
        inFlight.resolve();
      }
      if (this.resumeAgain) {
        this.resumeAgain = false;
        void this.resume(30_000).catch((err: Error) => this.errors.push(err.message));
      }
    } else {
      this.errors.push(`frame ${text.slice(0, 200)}`);
      const inFlight = this.resumeInFlight;
      if (inFlight && frame.type === 'error') {
        this.resumeInFlight = undefined;
        clearTimeout(inFlight.timer);
        inFlight.reject(new Error(`${this.handle}: resume refused: ${text.slice(0, 200)}`));
      }
    }
    for (const check of [...this.listeners]) check();
  }

  private arrived(event: PostEvent, now: number): void {
    if (event.kind === 'post' && event.postId && !this.arrivedAt.has(event.postId))
      this.arrivedAt.set(event.postId, now);
    const message = messageOf(event);
    if (message && !this.messageArrivedAt.has(message)) this.messageArrivedAt.set(message, now);
  }

  private apply(event: PostEvent): void {
    if (event.kind === 'post' && event.postId) this.applied.push(event.postId);
    const message = messageOf(event);
    if (message) this.messagesApplied.push(message);
    this.position = event.position;
    this.n = seq(event.position);
  }
}

const messageOf = (e: PostEvent) =>
  e.kind === 'conversation' && e.change === 'message' && e.peer && typeof e.seq === 'number'
    ? messageKey(e.peer, e.seq)
    : undefined;

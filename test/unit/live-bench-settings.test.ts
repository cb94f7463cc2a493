// test/unit/live-bench-settings.test.ts — the live benchmark's settings (test/bench/live/settings.ts):
// the profiles, `--sockets N` and `--worker-timeout S`, where a result is written, and options it
// does not know refused rather than ignored; and the local fan-out worker's timeout override the
// bench sets (infra/queue-settings.cjs), which moves the queue's visibility timeout with it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { liveBenchSettings, liveOutPath } from '../bench/live/settings.js';

const require = createRequire(import.meta.url);
const { queueSettings } = require('../../infra/queue-settings.cjs') as typeof import('../../infra/queue-settings.cjs');

describe('liveBenchSettings', () => {
  it('a full run: 1,000 sockets, the deployed worker timeout, written into docs/bench', () => {
    const s = liveBenchSettings({}, []);
    expect(s).toMatchObject({
      profile: 'default',
      sockets: 1000,
      workerTimeoutSeconds: 30,
      workerConcurrency: 4,
      messagePairs: 50,
      messagesPerPair: 4,
    });
    expect(liveOutPath(s)).toBe('docs/bench/live-bench.json');
  });

  it('--smoke: 50 sockets into bench-results; --sockets and --worker-timeout choose, in either spelling', () => {
    const smoke = liveBenchSettings({}, ['--smoke']);
    expect(smoke).toMatchObject({ profile: 'smoke', sockets: 50 });
    expect(liveOutPath(smoke)).toBe('bench-results/live-bench-smoke.json');
    expect(liveBenchSettings({}, ['--smoke', '--sockets', '200']).sockets).toBe(200);
    expect(liveBenchSettings({}, ['--sockets=300', '--worker-timeout=3'])).toMatchObject({
      sockets: 300,
      workerTimeoutSeconds: 3,
    });
    expect(liveBenchSettings({ LIVE_BENCH_SOCKETS: '1_500' }, []).sockets).toBe(1500);
    // The messages phase: pairs (0: none) and messages per pair.
    expect(liveBenchSettings({ LIVE_BENCH_MESSAGE_PAIRS: '0' }, []).messagePairs).toBe(0);
    expect(liveBenchSettings({ LIVE_BENCH_MESSAGES_PER_PAIR: '6' }, ['--smoke'])).toMatchObject({
      messagePairs: 5,
      messagesPerPair: 6,
    });
  });

  it('refuses an unknown option, a missing value and a count below one', () => {
    expect(() => liveBenchSettings({}, ['--socket', '5'])).toThrow(/unknown option/);
    expect(() => liveBenchSettings({}, ['--sockets'])).toThrow(/needs a value/);
    expect(() => liveBenchSettings({}, ['--sockets', '0'])).toThrow(/>= 1/);
    expect(() => liveBenchSettings({ BENCH_PROFILE: 'huge' }, [])).toThrow(/BENCH_PROFILE/);
  });
});

describe('LOCAL_FANOUT_TIMEOUT_SECONDS', () => {
  const withEnv = <T>(value: string | undefined, fn: () => T): T => {
    const before = process.env.LOCAL_FANOUT_TIMEOUT_SECONDS;
    if (value === undefined) delete process.env.LOCAL_FANOUT_TIMEOUT_SECONDS;
    else process.env.LOCAL_FANOUT_TIMEOUT_SECONDS = value;
    try {
      return fn();
    } finally {
      if (before === undefined) delete process.env.LOCAL_FANOUT_TIMEOUT_SECONDS;
      else process.env.LOCAL_FANOUT_TIMEOUT_SECONDS = before;
    }
  };

  it("sets the local fan-out worker's timeout and its queue's visibility, and nothing else", () => {
    const local = withEnv(undefined, () => queueSettings('local'));
    expect(local.workerTimeoutSeconds).toBe(3);
    withEnv('30', () => {
      expect(queueSettings('local')).toMatchObject({ workerTimeoutSeconds: 30, visibilityTimeoutSeconds: 180 });
      expect(queueSettings('local', { queue: 'media' }).workerTimeoutSeconds).toBe(30);
      expect(queueSettings('dev').workerTimeoutSeconds).toBe(30);
    });
    withEnv('12', () => expect(queueSettings('dev').visibilityTimeoutSeconds).toBe(181));
  });

  it('refuses a value that is not a whole number of seconds', () => {
    withEnv('2.5', () => expect(() => queueSettings('local')).toThrow(/LOCAL_FANOUT_TIMEOUT_SECONDS/));
  });
});

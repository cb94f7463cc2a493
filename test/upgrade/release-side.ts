// test/upgrade/release-side.ts — the released code's half of the upgrade test
// (test/integration/upgrade.test.ts runs it from the checkout of a release tag). Against the
// `npm start` of that release on a namespace of its own: a model check's seed (users, posts,
// reposts, comments, likes, follows, blocks, bookmarks, groups, notifications, private messages;
// test/support/model) and a post with a picture, the queue drained, then the comparison with the
// model, which must pass. It prints `[release] populated` and waits for a line on stdin: the
// namespace has been upgraded and the new code's `npm start` serves it at the same address. It
// compares again — the same model, the release's own comparison, so the new code keeps every
// promise the release's API made about that data — logs every account in again, reads the
// picture's bytes back, and exits 0 only when nothing differs.
//
//   API_URL=http://127.0.0.1:13500 SQS_ENDPOINT=… QUEUE_URL=… SEED=… OPS=… tsx test/upgrade/release-side.ts
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { localSqsClient } from '../../infra/local/sqs-poller.js';
import { apiClient } from '../support/api.js';
import { compareWithModel } from '../support/model/compare.js';
import { Driver, registerActor, type Actor } from '../support/model/driver.js';
import { DmDriver, makeDmPlan } from '../support/model/messages.js';
import { handleOf, makePlan } from '../support/model/plan.js';
import { ReferenceModel } from '../support/model/reference-model.js';
import { queueDrained } from '../support/queue.js';

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const api = apiClient(env('API_URL'));
const sqs = localSqsClient(env('SQS_ENDPOINT'));
const queueUrl = env('QUEUE_URL');
const seed = Number(env('SEED'));
const ops = Number(process.env.OPS ?? '80');
const say = (line: string) => console.log(`[release] ${line}`);

/** A post of `u`'s with one picture; the sha256 of each variant's bytes as served. */
async function postWithPicture(u: Actor): Promise<{ postId: string; variants: Record<string, string> }> {
  const bytes = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 120, b: 60 } } })
    .jpeg()
    .toBuffer();
  const declared = await api.call('POST', '/media', {
    token: u.token,
    body: { contentType: 'image/jpeg', size: bytes.length, purpose: 'post' },
  });
  if (declared.status !== 201) throw new Error(`declare a picture: ${declared.status} ${declared.text}`);
  const { media, upload } = declared.json;
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  if (put.status !== 200) throw new Error(`upload a picture: ${put.status}`);
  await api.call('POST', `/media/${media.id}/complete`, { token: u.token });
  for (let i = 0; ; i++) {
    const state = (await api.call('GET', `/media/${media.id}`, { token: u.token })).json?.state;
    if (state === 'ready') break;
    if (state === 'failed' || i > 120) throw new Error(`the picture did not become ready (${state})`);
    await sleep(500);
  }
  const posted = await api.call('POST', '/posts', {
    token: u.token,
    body: { body: 'a picture before the upgrade', media: [{ id: media.id, alt: '升级前' }] },
    headers: { 'idempotency-key': `upgrade-picture-${seed}` },
  });
  if (posted.status !== 201) throw new Error(`publish the picture: ${posted.status} ${posted.text}`);
  return { postId: posted.json.id, variants: await variantsOf(u, posted.json.id) };
}

async function variantsOf(u: Actor, postId: string): Promise<Record<string, string>> {
  const post = await api.call('GET', `/posts/${postId}`, { token: u.token });
  const urls = (post.json?.pictures?.[0]?.urls ?? {}) as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [size, url] of Object.entries(urls)) {
    const res = await fetch(url);
    out[size] = `${res.status} ${createHash('sha256')
      .update(Buffer.from(await res.arrayBuffer()))
      .digest('hex')}`;
  }
  return out;
}

/** Every difference the release's comparison finds once the queue has drained, the messages' too. */
async function differences(model: ReferenceModel, users: Actor[], dm: DmDriver): Promise<string[]> {
  await queueDrained(sqs, queueUrl, 180_000, 1_000);
  const from = dm.mismatches.length;
  const [found] = await Promise.all([compareWithModel(api, model, users), dm.compare()]);
  return [...found, ...dm.mismatches.slice(from)];
}

async function main(): Promise<number> {
  const plan = makePlan(seed, ops);
  const dmPlan = makeDmPlan(seed, 3, 6);
  const [users, dmUsers] = await Promise.all([
    Promise.all(
      Array.from({ length: plan.users }, (_, i) => registerActor(api, handleOf(seed, i), `upgrade ${seed} ${i}`)),
    ),
    Promise.all(Array.from({ length: 3 }, (_, i) => registerActor(api, `m${seed}_d${i}`, `upgrade ${seed} d${i}`))),
  ]);
  const model = new ReferenceModel(users.map((u) => u.handle));
  const driver = new Driver(api, plan, users, model);
  const dm = new DmDriver(api, seed, dmPlan, dmUsers);
  await Promise.all([
    dm.setUp().then(() => dm.run()),
    (async () => {
      for (const [wave, groups] of plan.waves.entries()) await driver.runWave(wave, groups);
    })(),
  ]);
  // A picture of a user of its own: the model's users' timelines hold only what the plan made.
  const painter = await registerActor(api, `m${seed}_p`, `upgrade ${seed} p`);
  const picture = await postWithPicture(painter);
  const before = [...driver.mismatches, ...dm.mismatches, ...(await differences(model, users, dm))];
  if (before.length > 0) {
    say(`the release disagrees with its own model before any upgrade:\n${before.map((m) => `  - ${m}`).join('\n')}`);
    return 2;
  }
  say(
    `seed ${seed}: ${plan.waves.length} waves, ${plan.slots.length} posts and reposts, ${plan.comments.length} comments; compared`,
  );
  say('populated');

  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();

  const after = await differences(model, users, dm);
  for (const u of [...users, ...dmUsers, painter]) {
    const login = await api.call('POST', '/sessions', { body: { handle: u.handle, password: u.password } });
    if (login.status !== 200) after.push(`${u.handle} cannot log in after the upgrade: ${login.status} ${login.text}`);
  }
  const variants = await variantsOf(painter, picture.postId);
  if (JSON.stringify(variants) !== JSON.stringify(picture.variants))
    after.push(
      `picture of ${picture.postId}: ${JSON.stringify(picture.variants)} before, ${JSON.stringify(variants)} after`,
    );
  if (after.length > 0) {
    say(`${after.length} difference(s) after the upgrade:\n${after.map((m) => `  - ${m}`).join('\n')}`);
    return 1;
  }
  say(
    'upgraded: every timeline, list, count, post, comment, picture, notification, conversation and account as before',
  );
  return 0;
}

main()
  .then((code) => {
    sqs.destroy();
    process.exit(code);
  })
  .catch((err: unknown) => {
    say(`stopped: ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(3);
  });

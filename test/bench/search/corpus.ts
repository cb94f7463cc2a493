// test/bench/search/corpus.ts — the search bench's synthetic Weibo-like posts: words drawn from a
// Zipf vocabulary of Chinese words with some English ones, joined into posts of a chosen length,
// and a rare word planted in a fixed share of them. Seeded: the same seed writes the same posts.
import { prng, randomInt, zipfSampler } from '../feed/random.js';

/** Most frequent first: the Zipf draw gives rank 0 the most posts. */
const CHINESE = `今天 真的 我们 喜欢 时候 觉得 一下 朋友 工作 天气 没有 什么 开心 生活 大家 知道 现在 已经 一起 还是
视频 分享 周末 上班 手机 电影 音乐 奶茶 咖啡 晚上 早上 下班 回家 学习 考试 老师 同学 妈妈 爸爸 孩子
北京 上海 广州 深圳 成都 杭州 武汉 西安 南京 重庆 旅游 拍照 风景 好吃 火锅 烧烤 外卖 快递 地铁 高铁
微博 热搜 评论 转发 点赞 关注 粉丝 博主 直播 综艺 电视剧 演唱会 明星 偶像 新歌 专辑 比赛 冠军 球迷 足球
篮球 跑步 健身 减肥 睡觉 熬夜 加班 老板 同事 工资 房租 买房 结婚 恋爱 分手 单身 猫咪 狗狗 宠物 春天
夏天 秋天 冬天 下雨 下雪 太阳 月亮 星星 大海 山上 公园 医院 学校 图书馆 超市 商场 打折 双十一 购物 快乐
难过 生气 感动 加油 谢谢 晚安 早安 哈哈哈 绝绝子 躺平 内卷 破防 摆烂 社恐 打工人 显眼包 电子榨菜 特种兵 遥遥领先 尔滨
冻梨 淄博 瑞幸 蜜雪冰城 华为 小米 茅台 酱香拿铁 新能源 人工智能 大模型 程序员 代码 面试 实习 毕业 论文 答辩 研究生`
  .split(/\s+/)
  .filter(Boolean);
const ENGLISH = 'the good day love happy coffee city walk weekend music photo yyds ok vlog live app iphone news game'
  .split(' ')
  .filter(Boolean);

/** The planted rare word: in no other post (its characters are in no word of the vocabulary). */
export const RARE_WORD = '饕餮';
/** The most frequent Chinese word, and the first two for the two-word query. */
export const COMMON_WORD = CHINESE[0]!;
export const TWO_WORDS = `${CHINESE[0]} ${CHINESE[3]}`;

export interface CorpusOptions {
  seed: number;
  /** Post length in code points, uniform in [min, max]. */
  minChars: number;
  maxChars: number;
  /** One post in `rareEvery` holds RARE_WORD. */
  rareEvery: number;
}

/** A post body source: `next(i)` is post i's body (call in order). */
export function corpus(opts: CorpusOptions): (i: number) => string {
  const rand = prng(opts.seed);
  // English words take every 8th rank, so they are spread over the frequency range.
  const vocab: string[] = [];
  for (let c = 0, e = 0; c < CHINESE.length; c++) {
    vocab.push(CHINESE[c]!);
    if (c % 7 === 6 && e < ENGLISH.length) vocab.push(ENGLISH[e++]!);
  }
  const draw = zipfSampler(vocab.length, 1.0, rand);
  const punctuation = ['，', '！', '。', ' ', '～', '？'];
  return (i) => {
    const target = randomInt(rand, opts.minChars, opts.maxChars);
    let body = i % opts.rareEvery === opts.rareEvery - 1 ? RARE_WORD : '';
    while ([...body].length < target) {
      const word = vocab[draw()]!;
      const latin = /^[a-z]/.test(word);
      body += latin ? ` ${word} ` : word;
      if (rand() < 0.15) body += punctuation[Math.floor(rand() * punctuation.length)]!;
    }
    return [...body.trim()].slice(0, opts.maxChars).join('');
  };
}

// test/support/search-recall-set.ts — the fixed set the recall test (test/unit/search-recall.test.ts)
// measures tokenizers on: short Weibo-like posts and queries, each query with the posts a person
// would call relevant.
//
// How the judgement was made (by reading, not by running any tokenizer):
// - A post is relevant when it is about what the query's words say, in those words. Synonyms and
//   nicknames of a query word do not count (no tokenizer here knows them), nor do English
//   inflections (run ≠ running).
// - A post that holds the query's characters but not its word is NOT relevant: 和服 (kimono) in
//   我和服务员 (I and the waiter), 猫 in 熊猫 (panda) and 猫耳朵 (a pasta), 狗 in 冻成狗 (frozen
//   stiff), 上海 in 网上海量, 市长 in 南京市长江大桥 (Nanjing's Yangtze bridge), 研究生 in 研究生命.
//   These are the false hits a substring match makes, and they count against its precision.
// - Words of a query need not be next to each other (北京 烤鸭 finds 在北京吃了全聚德烤鸭).
// - `#话题#` asks for the topic: only posts that carry it. `@handle` asks for posts mentioning it.

export interface RecallPost {
  id: string;
  body: string;
}

export interface RecallQuery {
  q: string;
  /** The ids of the relevant posts. */
  relevant: string[];
  /** Why, where the judgement is not plain. */
  note?: string;
}

export const RECALL_POSTS: RecallPost[] = [
  { id: 'p01', body: '我家猫咪今天又把花瓶打碎了，气死我了😤' },
  { id: 'p02', body: '楼下那只橘猫胖成球了，每天都来蹭饭' },
  { id: 'p03', body: '给小猫买了新猫粮，它居然不吃' },
  { id: 'p04', body: '成都大熊猫基地排队三个小时，终于看到花花了' },
  { id: 'p05', body: '刷微博刷到凌晨三点，明天又要早起上班' },
  { id: 'p06', body: '这条热搜也太离谱了吧，微博服务器又崩了' },
  { id: 'p07', body: '今天的热搜第一居然是一只狗' },
  { id: 'p08', body: '北京大学的未名湖结冰了，好多人在滑冰' },
  { id: 'p09', body: '周末在北京吃了全聚德烤鸭，排队两小时' },
  { id: 'p10', body: '北京的秋天真的太美了，香山红叶' },
  { id: 'p11', body: '考上北京大学研究生了！！！感谢所有人' },
  { id: 'p12', body: '研究生命起源的纪录片很好看' },
  { id: 'p13', body: '穿和服在京都拍照，超出片' },
  { id: 'p14', body: '我和服务员吵了一架，菜等了一个小时' },
  { id: 'p15', body: '这家奶茶绝绝子，下次还来' },
  { id: 'p16', body: '今天的晚霞绝绝子！#晚霞#' },
  { id: 'p17', body: '不想内卷了，决定躺平' },
  { id: 'p18', body: '躺平是不可能躺平的，这辈子都不可能' },
  { id: 'p19', body: '教育内卷太严重了，孩子周末全是补习班' },
  { id: 'p20', body: '梅西yyds！世界杯冠军实至名归' },
  { id: 'p21', body: 'YYDS，这个演唱会我能吹一辈子' },
  { id: 'p22', body: '打工人打工魂，打工都是人上人' },
  { id: 'p23', body: '周一综合症，打工人今天也要加油鸭' },
  { id: 'p24', body: '淄博烧烤真的名不虚传 #淄博烧烤#' },
  { id: 'p25', body: '为了吃烧烤专门坐高铁去淄博，值了' },
  { id: 'p26', body: '#淄博烧烤# 小饼卷一切' },
  { id: 'p27', body: '尔滨你让我感到陌生，冻梨都切好摆盘了' },
  { id: 'p28', body: '去哈尔滨看冰雪大世界，零下三十度冻成狗' },
  { id: 'p29', body: '哈尔滨的冻梨和锅包肉，南方小土豆吃哭了' },
  { id: 'p30', body: '王一博的新剧什么时候播啊' },
  { id: 'p31', body: '谷爱凌又拿金牌了，太强了' },
  { id: 'p32', body: '丁真的家乡理塘真美' },
  { id: 'p33', body: '瑞幸和茅台联名的酱香拿铁，一口上头' },
  { id: 'p34', body: '早上一杯瑞幸，续命神器' },
  { id: 'p35', body: '蜜雪冰城甜蜜蜜，你爱我我爱你' },
  { id: 'p36', body: '华为Mate 60发布了，遥遥领先' },
  { id: 'p37', body: '小米SU7交付了，雷军亲自开门' },
  { id: 'p38', body: '入手了 iPhone 15 Pro，手感不错' },
  { id: 'p39', body: 'city walk 了一下午，上海的梧桐区太好逛了' },
  { id: 'p40', body: '周末去 City Walk，顺便喝了杯 café latte' },
  { id: 'p41', body: '网上海量的信息让人焦虑' },
  { id: 'p42', body: '上海下雨了，地铁挤爆了' },
  { id: 'p43', body: '破防了，看这个视频哭了半小时' },
  { id: 'p44', body: '摆烂一天，什么也不想干' },
  { id: 'p45', body: '社恐的我今天被迫在年会上表演' },
  { id: 'p46', body: '这个显眼包是谁家的孩子哈哈哈' },
  { id: 'p47', body: '特种兵式旅游，两天打卡八个景点' },
  { id: 'p48', body: '下饭的电子榨菜推荐：甄嬛传看了八遍' },
  { id: 'p49', body: '@rmrb 今年春运开始了，祝大家一路平安' },
  { id: 'p50', body: '春运抢票太难了，12306又崩了' },
  { id: 'p51', body: 'Just finished a 10k run in the rain, feeling great' },
  { id: 'p52', body: 'The coffee here is amazing, best cafe in town' },
  { id: 'p53', body: 'Running late again, the subway is packed' },
  { id: 'p54', body: 'Learning Chinese: 你好 means hello' },
  { id: 'p55', body: '新买的键盘手感绝了 mechanical keyboard yyds' },
  { id: 'p56', body: '南京市长江大桥的夜景真好看' },
  { id: 'p57', body: '新上任的市长今天视察了地铁' },
  { id: 'p58', body: '我的猫会开门，是不是成精了' },
  { id: 'p59', body: '今天吃了猫耳朵（一种面食），很香' },
  { id: 'p60', body: '朋友圈都在晒酱香拿铁' },
  { id: 'p61', body: 'Apple 发布会又是挤牙膏，iPhone 没啥新意' },
  { id: 'p62', body: '摆烂不可取，但偶尔躺平一下也行 @rmrb' },
];

export const RECALL_QUERIES: RecallQuery[] = [
  { q: '猫', relevant: ['p01', 'p02', 'p03', 'p58'], note: '熊猫 is a panda, 猫耳朵 a pasta' },
  { q: '狗', relevant: ['p07'], note: '冻成狗 means frozen stiff' },
  { q: '微博', relevant: ['p05', 'p06'] },
  { q: '热搜', relevant: ['p06', 'p07'] },
  { q: '北京', relevant: ['p08', 'p09', 'p10', 'p11'], note: '北京大学 is in 北京' },
  { q: '北京大学', relevant: ['p08', 'p11'] },
  { q: '北京 烤鸭', relevant: ['p09'], note: 'the words apart in the post' },
  { q: '研究生', relevant: ['p11'], note: '研究生命 is 研究 + 生命' },
  { q: '生命', relevant: ['p12'] },
  { q: '和服', relevant: ['p13'], note: '我和服务员 is 和 + 服务员' },
  { q: '市长', relevant: ['p57'], note: '南京市长江大桥 is 南京市 + 长江大桥' },
  { q: '南京', relevant: ['p56'] },
  { q: '上海', relevant: ['p39', 'p42'], note: '网上海量 is 网上 + 海量' },
  { q: '绝绝子', relevant: ['p15', 'p16'] },
  { q: '躺平', relevant: ['p17', 'p18', 'p62'] },
  { q: '内卷', relevant: ['p17', 'p19'] },
  { q: '摆烂', relevant: ['p44', 'p62'] },
  { q: 'yyds', relevant: ['p20', 'p21', 'p55'] },
  { q: '打工人', relevant: ['p22', 'p23'] },
  { q: '破防', relevant: ['p43'] },
  { q: '社恐', relevant: ['p45'] },
  { q: '显眼包', relevant: ['p46'] },
  { q: '电子榨菜', relevant: ['p48'] },
  { q: '特种兵 旅游', relevant: ['p47'] },
  { q: '淄博 烧烤', relevant: ['p24', 'p25', 'p26'] },
  { q: '#淄博烧烤#', relevant: ['p24', 'p26'], note: 'the topic: only the posts that carry it' },
  { q: '#晚霞#', relevant: ['p16'] },
  { q: '冻梨', relevant: ['p27', 'p29'] },
  { q: '哈尔滨 冻梨', relevant: ['p29'], note: '尔滨 is a nickname of 哈尔滨: not the word' },
  { q: '王一博', relevant: ['p30'] },
  { q: '谷爱凌', relevant: ['p31'] },
  { q: '丁真', relevant: ['p32'] },
  { q: '瑞幸', relevant: ['p33', 'p34'] },
  { q: '酱香拿铁', relevant: ['p33', 'p60'] },
  { q: '蜜雪冰城', relevant: ['p35'] },
  { q: '华为', relevant: ['p36'] },
  { q: '遥遥领先', relevant: ['p36'] },
  { q: '雷军', relevant: ['p37'] },
  { q: 'SU7', relevant: ['p37'] },
  { q: 'iphone', relevant: ['p38', 'p61'] },
  { q: 'City Walk', relevant: ['p39', 'p40'] },
  { q: 'cafe', relevant: ['p40', 'p52'], note: 'café is cafe' },
  { q: 'run', relevant: ['p51'], note: 'Running late is not a run' },
  { q: '春运', relevant: ['p49', 'p50'] },
  { q: '@rmrb', relevant: ['p49', 'p62'] },
  { q: '键盘', relevant: ['p55'] },
];

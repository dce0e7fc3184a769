#include "text/stoplist.h"

/*
 * The built-in lists, written for this project.  English: articles,
 * pronouns, prepositions, conjunctions, auxiliaries, a few adverbs of
 * degree and the pieces that contractions leave ("don't" is "don" "t").
 */
const char sh_stoplist_en[] =
    "a an the "
    "i me my mine myself you your yours yourself yourselves he him his "
    "himself she her hers herself it its itself we us our ours ourselves "
    "they them their theirs themselves one "
    "this that these those who whom whose which what "
    "am is are was were be been being have has had having do does did "
    "doing will would shall should can could may might must "
    "of in on at by for with about against between into through during "
    "before after above below to from up down out off over under again "
    "further upon within without among "
    "and but or nor so yet if because as until while than whether "
    "although though unless since "
    "not no there here when where why how all any both each few more most "
    "other some such only own same too very just also then "
    "s t d ll m re ve";

/* Chinese: particles, pronouns, prepositions, conjunctions, auxiliaries
 * and their common compounds. */
const char sh_stoplist_zh[] =
    "的 了 是 在 和 也 就 都 而 及 与 着 或 之 于 被 把 对 从 向 以 为 "
    "让 给 跟 同 但 并 且 又 还 则 却 所 其 此 这 那 得 地 过 "
    "吗 呢 吧 啊 呀 哦 嘛 啦 么 "
    "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 "
    "这个 那个 这些 那些 这里 那里 这样 那样 这种 那种 "
    "什么 怎么 怎样 为什么 哪里 哪个 "
    "因为 所以 但是 而且 并且 或者 如果 虽然 即使 然后 因此 于是 "
    "不过 可是 只是 还是 就是 也是 都是 而是 以及 由于 关于 对于 "
    "通过 按照 根据 为了 除了 的话 之后 之前 之间 之一 其中 等 等等 "
    "一个 一些 一种 已经 可以 没有 不是";

const size_t sh_stoplist_enlen = sizeof(sh_stoplist_en) - 1;
const size_t sh_stoplist_zhlen = sizeof(sh_stoplist_zh) - 1;

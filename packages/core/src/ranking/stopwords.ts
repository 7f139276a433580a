/**
 * Words that carry little meaning in a request: the Snowball English stop list, plus the
 * politeness and conversation words of chatty requests ("can you please help me..."). They
 * are not dropped blindly: the ranker down-weights them, and only tool names index them.
 */
const SNOWBALL_ENGLISH = `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
she her hers herself it its itself they them their theirs themselves what which who whom this that these those am
is are was were be been being have has had having do does did doing would should could ought a an the and but if
or because as until while of at by for with about against between into through during before after above below to
from up down in out on off over under again further then once here there when where why how all any both each few
more most other some such no nor not only own same so than too very`;

const CONVERSATION = `please kindly hey hi hello thanks thank help want wants wanted wanting wish like love would
can cannot could will shall may might must need needs also just really actually maybe perhaps im ive id youre dont
let lets know tell don doesn didn isn aren wasn weren wouldn couldn shouldn ll re ve m t d s`;

const STOPWORDS: ReadonlySet<string> = new Set(`${SNOWBALL_ENGLISH} ${CONVERSATION}`.split(/\s+/));

/** True for a common word of requests (expects a token from `tokenize`, lowercase). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

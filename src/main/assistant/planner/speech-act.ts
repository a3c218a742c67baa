/**
 * Whether a message asks, tells or orders. Only an order may become a write: "has Rahul paid?",
 * "did Vikram settle?", "is Amit's CL 50k?" and "Rahul ne paise diye" are read as questions
 * (or reports of what happened), never as "settle Rahul" or "set the CL". Reads the folded text.
 */
export type SpeechAct = 'question' | 'command' | 'statement';

/** Openers that carry no meaning of their own: "ok bhai please …". */
const FILLER = /^(?:(?:ok(?:ay)?|k|bhai|bro|boss|sir|ji|hey|yo|hi|hello|please|pls|plz|kindly|just|now|so|and|also|then|acha|accha|haan|han|yes|yeah|arre|arey|um+|uh+|erm+|er|hmm+|well|like|oye|paaji|paji)\b[\s,.!]*)+/;
/** "can you settle…", "go ahead and set…": requests made politely are still orders. */
const POLITE_ORDER = /^(?:(?:can|could|would|will)\s+(?:you|u)|go\s+ahead(?:\s+and)?|lets|let\s+us|i\s+(?:want|need)\s+(?:you\s+)?to|i\s+(?:want|wanna)\s+(?:to\s+)?|i\s+would\s+like\s+(?:you\s+)?to)\b/;
const QUESTION_OPENER = /^(?:what|whats|how|who|whom|whose|when|why|which|where|is(?!\s+(?:hafte|hafta|mahine|mahina|week|month|baar|saal|match|game|din))|are|was|were|has|have|had|did|does|didnt|doesnt|hasnt|havent|isnt|arent|wasnt|do(?!\s+(?:it|a|the|this|that|settle|set|change|clear)\b)|can(?!\s+(?:you|u)\b)|could(?!\s+(?:you|u)\b)|would(?!\s+(?:you|u)\b)|will(?!\s+(?:you|u)\b)|should|shall\s+(?:i|we)|may\s+i|am\s+i|any|kya|kitna|kitne|kitni|kaun|kon|kab|kyu|kyun|kaise|kidhar|kaha|kahan)\b/;
/** A Hinglish question ends on its question word: "Rahul ne paise diye kya", "limit kitni hai". */
const QUESTION_CLOSER = /\b(?:kya|kitna|kitne|kitni|na|ki\s+nahi|ya\s+nahi|or\s+not|hai\s+kya|yet)\s*[?!.]*$/;
const HINDI_QUESTION = /\b(?:kitna|kitne|kitni|kaun|kon|kab|kaise|kyu|kyun|kya)\b/;
const HINDI_ORDER_END = /\b(?:kar\s*do|kardo|krdo|karo|kro|kijiye|kariye|karde|kar\s+de|de\s+do|dedo|dikhao|batao|bhejo|bhej\s+do)\s*[.!]*$/;
/** "kar doge kya", "kar dijiye na", "bhej sakte ho": will you do it, asked of the assistant. */
const POLITE_HINDI_ORDER = /\b(?:kar|kr|bhej|bana|dikha|bata|laga|set|settle)\s+(?:doge|dogi|doge\s+na|denge|dijiye|dijie|sakte\s+ho|sakoge|sakogi)\b/;
/** What happened, not what to do: "paid", "sent", "diye". */
const DONE = /\b(?:paid|sent|cleared|settled|deposited|transferred|received|got|diya|diye|di|bheja|bheje|bheji|kiya|kiye|kari|mila|mile|aaya|aaye|aa\s+gaya|aa\s+gaye|de\s+diya|de\s+diye)\b/;
/** Orders in Hinglish and English that make even "…?" a request. */
export const ORDER_MARKER = /\b(?:please|pls|plz|kindly|karo|kardo|kar\s+do|krdo|kr\s+do|karde|kar\s+de|kijiye|kijie|karna|kro|do\s+it|go\s+ahead|rakh\s*do|rakho|should\s+be|must\s+be|make\s+it)\b|\bkar\s*[.!]*$/;

/**
 * Asking for advice, however politely wrapped: "can you tell me if I should settle Deepak?", "do
 * you think I should raise it", "kya mujhe CL badha dena chahiye". The user decides; the answer is a read.
 */
const ADVICE = /\b(?:should|shall)\s+(?:i|we)\b|\b(?:theek|thik|sahi|accha|acha|thik\s+ache|bhalo)\s+(?:rahega|rahegi|hoga|hogi|hobe|hoy)\b|\b(?:tell|let)\s+me\s+(?:know\s+)?(?:if|whether)\b|\bdo\s+(?:you|u)\s+think\b|\bis\s+it\s+(?:ok|okay|fine|safe|wise|smart|a\s+good\s+idea)\s+to\b|\b(?:kya|mujhe|hume|humein)\b.*\bchahiye\b|\bchahiye\b.*(?:\bkya\b|\?)|\b(?:banta|banti|bante|bantaa)\s+(?:hai|h|he|hain)\b|\b(?:karna|karni|karne)\s+(?:hai|h|he|hoga|padega|chahiye)\s+kya\b|\b(?:karu|karun|karoon|kar\s+du|kar\s+dun|kar\s+doon|kardu|kardun|kardoon|kar\s+dein|kar\s+dei|kardein|karein|karen|kar\s+lein|kar\s+lu|kar\s+lun)\b.*(?:\bkya\b|\?)/;

/**
 * A change supposed, not ordered: "if I settle Anita today how much would I get", "what would
 * happen if I raised his CL", "agar karan ko settle karu to", "before you do anything, tell me: if I
 * settled Karan…". Its figures are a read; nothing is proposed.
 */
const HYPOTHETICAL = /^(?:if|agar|suppose|supposing|say|imagine|in\s+case)\b|\b(?:karu|karun|karoon|kar\s+du|kar\s+dun|kar\s+doon|du|dun|doon|de\s+du|de\s+dun|diya|di|kiya|kari)\s+(?:toh|to|tab|phir|tar)\s+(?!do\b|karo\b)|\b(?:if|agar)\s+(?:i|we|main|mai|hum|maine|humne)\b(?!\s+(?:may|might)\b)|\bwhat\s+(?:if|would|happens|will\s+happen)\b|\bhow\s+much\s+would\b|\bwould\s+(?:i|we|it|that|he|she|they)\s+(?:get|have|owe|lose|make|be|gain|receive)\b/;

/**
 * A payment foretold by someone else: "karan will pay 15k tomorrow", "sneha is going to send it",
 * "deepak kal 10k dega". It tells what to expect; nothing is to be done yet.
 */
const FORETOLD = /^(?!(?:i|we|you|u|please|pls|plz|can|could|would|lets)\b)(?:\p{L}+\s+){1,2}(?:(?:told|said|says|tells|told\s+me|said\s+to\s+me)\s+(?:that\s+)?(?:he|she|they|\p{L}+)\s+)?(?:will|wil|shall|is\s+going\s+to|is\s+gonna|gonna|promised\s+to|promises\s+to|plans\s+to|says\s+he\s+will|says\s+she\s+will)\s+(?:pay|send|clear|settle|transfer|deposit|give)\b|\b(?:dega|degi|denge|bhejega|bhejegi|bhejenge|chukayega|chukayegi|chukayenge)\b/u;

/** A message opening on a hedge or on the user's own plan: it tells, it does not order. */
/** A player's request passed on ("Karan bol raha hai limit badha do 20k", "Neha wants her CL at 50k"): told, not ordered by the user. */
const RELAYED = /^(?!(?:i|we|you|u|please|pls|plz|can|could|would|lets|main|hum)\b)\p{L}+(?:\s+\p{L}+)?\s+(?:bol|keh|kah)\s+(?:raha|rahi|rahe|rha|rhi)\s+(?:hai|tha|thi|h|he)\b|^(?!(?:i|we|you|u|please|pls|plz|can|could|would|lets)\b)\p{L}+(?:\s+\p{L}+)?\s+(?:says|said|wants|asked|is\s+asking|asks|requested|keeps\s+asking)\s+(?:me\s+)?(?:to\s+|for\s+|that\s+)?/u;
const HEDGED = /^(?:maybe|perhaps|possibly|probably|i\s+(?:think|guess|might|may|will|shall|plan\s+to|am\s+planning\s+to|am\s+thinking\s+of|am\s+going\s+to|was\s+going\s+to|was\s+thinking)|im\s+(?:going|planning|thinking)|shayad|lagta\s+hai)\b/;

/** `orderVerbs`: the verbs of the write tools ("settle", "set"); one opening the message makes it an order, "?" or not. */
/** Courtesy said as a condition: "if it's not too much trouble, bump…", "if you don't mind". It supposes nothing. */
const POLITE_IF = /\b(?:if\s+(?:it(?:\s*'?\s*s)?|it\s+is|that(?:\s*'?\s*s)?|thats)\s+(?:not\s+too\s+much\s+(?:trouble|bother|of\s+a\s+bother)|ok(?:ay)?|alright|fine|possible)|if\s+(?:you|u)\s+(?:dont|don\s*'?\s*t|don|do\s+not)\s+mind|if\s+possible|if\s+(?:you|u)\s+(?:can|could|get\s+a\s+(?:chance|moment|minute)|have\s+a\s+(?:moment|minute|sec(?:ond)?)))\b[\s,]*/g;

/** Whether the message supposes a change rather than asking for it ("if I settle Anita, how much…"). */
export const supposes = (folded: string): boolean => HYPOTHETICAL.test(folded.replace(POLITE_IF, ' '));

export function speechAct(folded: string, orderVerbs: ReadonlySet<string>): SpeechAct {
  const text = folded.replace(POLITE_IF, ' ').trim().replace(/^(?:so|and)\b[\s,]*/, '').replace(FILLER, '').trim();
  if (ADVICE.test(text) || HYPOTHETICAL.test(text)) return 'question';
  if (FORETOLD.test(text) || RELAYED.test(text)) return 'statement';
  if (POLITE_ORDER.test(text)) return 'command';
  // "maybe I settle Suresh tomorrow", "I think I'll raise his CL": a plan or a guess told, not an order given.
  if (HEDGED.test(text)) return 'statement';
  if (orderVerbs.has(text.split(/[\s,.!?]+/)[0] ?? '')) return 'command';
  // "min stake 500 kar doge kya plz", "bhej denge kya": a favour asked is an order, Hindi's polite way.
  if (POLITE_HINDI_ORDER.test(text)) return 'command';
  if (QUESTION_OPENER.test(text) || QUESTION_CLOSER.test(text)) return 'question';
  // Hindi puts its question word anywhere ("karan ka kitna settle karna baki hai", "alerts band hai kya
  // abhi"): asked, unless the message ends on an order ("… kitna bhi ho, settle kar do").
  if (HINDI_QUESTION.test(text) && !HINDI_ORDER_END.test(text)) return 'question';
  const asked = /\?\s*$/.test(text);
  if (DONE.test(text) && !ORDER_MARKER.test(text)) return asked ? 'question' : 'statement';
  if (asked && !ORDER_MARKER.test(text)) return 'question';
  return 'command';
}

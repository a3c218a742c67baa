/**
 * The consent guard: a message that asks for a change *and* for its confirmation to be skipped,
 * faked or taken as given ("without asking", "already confirmed", "pre-approved", "confirmations
 * off", "confirm mat poochna", a nonce typed in) asks for something the app never does. Neither
 * planner answers it with a preview of one reading of it: the user is told that every change
 * waits for their Confirm on its preview, and asked for the change on its own. The words are
 * read as a kind (bypassing the confirmation), in English and Hinglish, not as any one phrasing.
 */
import { isWord, tokensOf } from '../../../shared/parse/phrases.js';

/** Words of confirming, previewing or asking first, as they stand after "without", "no", "skip", "don't". */
const CONSENT = String.raw`(?:confirm\w*|preview\w*|approv\w*|ask\w*|check\w*|permission|verif\w*|puch\w*|pooch\w*)`;

const BYPASS = new RegExp([
  String.raw`\bwithout\s+(?:\w+\s+){0,2}${CONSENT}`,
  String.raw`\bno\s+(?:\w+\s+){0,2}${CONSENT}`,
  String.raw`\b(?:dont|don\s+t|do\s+not|never|stop)\s+(?:\w+\s+){0,2}${CONSENT}`,
  String.raw`\b(?:skip\w*|bypass\w*|disable\w*|ignore\w*|turn\w*\s+off|switch\w*\s+off)\s+(?:\w+\s+){0,2}${CONSENT}`,
  String.raw`\b${CONSENT}\s+(?:\w+\s+){0,2}(?:off|disabled|not\s+needed|unnecessary|mat|nahi|nahin|nako|nakko|vendam|vaddu|beda|venam|nei|lagbe\s+na|chai\s+na)\b`,
  // "confirm nee ye pannidu" (you do it), "ennai kekkadha" (don't ask me), "majhya taraf ne confirm kar" (on my behalf).
  String.raw`\bconfirm\w*\s+(?:\w+\s+){0,2}(?:nee|neeye|neenga|nuvve|neene)\b`,
  String.raw`\b(?:kekkadha|kekkadhe|kekatha|adagaku|adagoddu|kelbeda)\b`,
  String.raw`\b(?:on\s+my\s+behalf|meri\s+taraf\s+se|majhya\s+taraf\w*|maza\s+taraf\w*)\s+(?:\w+\s+){0,2}${CONSENT}|\b${CONSENT}\s+(?:\w+\s+){0,2}on\s+my\s+behalf\b`,
  String.raw`\b(?:already|pre|auto)\s*(?:confirmed|approved|authori[sz]ed|consented)\b`,
  // "confirm wala step skip kar dena", "approval hata do": the confirming step itself taken away.
  String.raw`\b${CONSENT}\s+(?:\w+\s+){0,2}(?:skip\w*|bypass\w*|hata\w*|nikal\w*)\b`,
  String.raw`\bbina\s+(?:\w+\s+){0,1}${CONSENT}`,
  // "mujhe mat puchho", "mainu na puchho", "button mat dikha": the asking, or its button, refused in Hindi or Punjabi.
  String.raw`\b(?:mat|na|nahi|nahin)\s+${CONSENT}`,
  String.raw`\b(?:button|preview|popup)\s+(?:\w+\s+){0,1}(?:mat|na|nahi|nahin)\s+(?:dikha\w*|dikhao|dasso|bhej\w*)`,
  // "tu hi confirm maar de", "confirm vi aape hi kar deyo": the desk confirming in the user's place.
  String.raw`\b(?:tu|tum|aap|aape|khud)\s+(?:hi\s+)?${CONSENT}`,
  String.raw`\bconfirm\w*\s+(?:\w+\s+){0,3}(?:aape|khud)\b`,
  // "just confirm the limit changes yourself from now on": the assistant confirming for the user.
  String.raw`\b(?:confirm\w*|approv\w*)\s+(?:\w+\s+){0,4}(?:yourself|on\s+your\s+own|automatically|by\s+yourself|khud|apne\s+aap)\b`,
  // A confirmation is the Confirm button's nonce: one typed into the chat is an attempt to forge it.
  String.raw`\b(?:nonce|payload\s*hash|confirmed\s+true)\b`,
].join('|'));

/** Whether the message asks for its change to skip (or claim) the user's confirmation. */
export function asksToSkipConfirmation(text: string): boolean {
  // "don't" is read as "dont": an apostrophe joins a word, every other mark parts words.
  const folded = ` ${tokensOf(text.toLowerCase().replaceAll("'", '').replaceAll('’', '')).filter((t) => isWord(t)).join(' ')} `;
  return BYPASS.test(folded);
}

export const SKIP_CONFIRMATION_ANSWER = 'Every change waits for you to press Confirm on its preview: I can\'t skip that, take it as given, '
  + 'or accept a confirmation typed in the chat. Ask for the change on its own and I will show you the preview.';

/**
 * The words by which a model's prose claims that a change took effect, or speaks in the desk's
 * own voice, in English and in Hinglish as agents type it. Data only: prose-guard.ts reads a
 * sentence as words and matches these phrases against them, so a new phrasing is a new row here,
 * not a new branch of code.
 *
 * A phrase is words separated by spaces. `{name}` stands for any word of the class `name` in
 * WORD_CLASSES, and a part ending in `?` may be left out ("{me} {has}? {adv}? {effect}" reads
 * "I set", "I've set", "we have now placed"). Words are matched as the tokenizer leaves them:
 * lower case, contractions spelt out ("I've" → "i have", "isn't" → "is not"), "'s" dropped.
 */

export const WORD_CLASSES = {
  me: ['i', 'we', 'maine', 'mene', 'humne', 'hamne'],
  you: ['you', 'user', 'they', 'aap', 'aapne', 'apne', 'tum', 'tumne'],
  /** Hindi's "you" of a finished act ("aapne confirm kiya"), unlike "aap confirm karo", which asks. */
  youDid: ['aapne', 'apne', 'tumne', 'tune'],
  /** Hindi's "already", "yourself". */
  hiAdv: ['pehle', 'hi', 'toh', 'already', 'bhi', 'khud'],
  /** What the user is said to have done when a model claims consent in Hinglish. */
  consentStem: ['confirm', 'approve', 'ok', 'okay', 'haan', 'allow'],
  has: ['has', 'have', 'had'],
  be: ['is', 'are', 'was', 'were', 'am'],
  adv: ['just', 'now', 'already', 'successfully', 'also', 'finally', 'fully', 'officially', 'ab', 'abhi'],
  /** Participles of making a change. */
  effect: [
    'set', 'changed', 'updated', 'raised', 'lowered', 'increased', 'decreased', 'reduced', 'settled', 'cleared', 'applied',
    'executed', 'placed', 'shared', 'sent', 'confirmed', 'approved', 'authorised', 'authorized', 'processed', 'completed', 'done',
    'saved', 'transferred', 'submitted', 'adjusted', 'modified', 'edited', 'implemented', 'actioned', 'finalised', 'finalized',
    'booked', 'revised', 'lifted', 'capped', 'paid',
  ],
  /** What a change is said to be once made. */
  state: [
    'done', 'complete', 'completed', 'applied', 'confirmed', 'approved', 'executed', 'through', 'successful', 'success', 'finalised',
    'finalized', 'sorted', 'processed',
  ],
  /** What only the user can give, and a model may claim was given. */
  consent: ['confirmed', 'approved', 'authorised', 'authorized', 'agreed', 'consented', 'okayed', 'accepted', 'permitted'],
  /** What a change is made to. */
  object: [
    'change', 'changes', 'limit', 'limits', 'cl', 'credit', 'settlement', 'settlements', 'hedge', 'report', 'payment', 'transaction',
    'request', 'order', 'update', 'bet', 'amount', 'entry', 'adjustment', 'action', 'khata', 'hisaab', 'hisab', 'dao', 'kaam',
  ],
  /** Hinglish verb roots as agents write them before "ho gaya", "kiya", "hai". */
  stem: [
    'set', 'settle', 'change', 'update', 'confirm', 'approve', 'place', 'apply', 'save', 'send', 'share', 'process', 'transfer',
    'submit', 'clear', 'adjust', 'edit', 'done', 'complete', 'lagu', 'badal', 'increase', 'decrease', 'reduce',
  ],
  /** The perfective "went" of "ho gaya", "lag gaya", "ho chuka". */
  gaya: ['gaya', 'gayi', 'gaye', 'gya', 'gyi', 'gye', 'chuka', 'chuki', 'chuke'],
  /** "ho gaya" typed as one word. */
  hogaya: ['hogaya', 'hogya', 'hogayi', 'hogyi', 'hogaye', 'hogye'],
  /** The perfective "gave" of "kar diya", "laga diya". */
  diya: ['diya', 'di', 'diye', 'dia', 'diyaa'],
  /** "kar diya" and its kind typed as one word. */
  kardiya: ['kardiya', 'kardi', 'kardiye', 'kardia', 'krdiya', 'krdi', 'krdia', 'lagadiya', 'bhejdiya', 'kardiyaa'],
  kiya: ['kiya', 'kiye', 'kia'],
  /** Hindi verbs that take "diya" when done: laga diya (placed), bhej diya (sent), badha diya (raised). */
  hindiVerb: ['laga', 'lga', 'lgaa', 'bhej', 'badha', 'badhaa', 'ghata', 'ghataa', 'daal', 'dal', 'badal', 'hata', 'jod', 'kaat', 'kat', 'chadha', 'de', 'nipta', 'chuka'],
  hai: ['hai', 'hain'],
  /** Words a bare report of completion is padded with ("Okay, all done!", "Sir, ho gaya"). */
  filler: [
    'ok', 'okay', 'okey', 'sure', 'great', 'perfect', 'all', 'yes', 'yep', 'yeah', 'alright', 'right', 'sir', 'maam', 'ji', 'boss', 'bhai',
    'haan', 'han', 'haanji', 'successfully', 'now', 'the', 'your', 'this', 'that', 'it', 'its', 'everything', 'sab', 'sabkuch', 'bas',
    'fully', 'finally', 'already', 'ab', 'abhi', 'hai', 'hain', 'toh', 'ho', 'kar', 'kr', 'lag',
  ],
} as const satisfies Record<string, readonly string[]>;

export type WordClass = keyof typeof WORD_CLASSES;

/**
 * When a matching sentence is false. `always`: a model's turn never executes anything (only the
 * human's Confirm does), so a claim that something was done is false whatever the turn read.
 * `change`: words that also describe rows ("Rahul's limit was set to 50,000"), false only when
 * the turn has a change in play — the user asked for one, or the model asked for one.
 */
export type ClaimTier = 'always' | 'change';

export interface ClaimPhrase {
  phrase: string;
  tier: ClaimTier;
  /**
   * Whether a date in the sentence (3 Nov, Monday, yesterday, pichle hafte) makes it history read
   * from rows rather than a claim about this turn. Never for the first person: the model made no change on any day.
   */
  dated: boolean;
}

export const CLAIM_PHRASES: readonly ClaimPhrase[] = [
  // The model says it made the change.
  { phrase: '{me} {has}? {adv}? {effect}', tier: 'always', dated: false },
  { phrase: '{me} {has}? {adv}? made the change', tier: 'always', dated: false },
  { phrase: '{me} {has}? {adv}? gone ahead and {effect}', tier: 'always', dated: false },
  { phrase: '{me} went ahead and {effect}', tier: 'always', dated: false },
  { phrase: '{me} {has}? {adv}? taken care of', tier: 'always', dated: false },
  // The change is said to have taken effect.
  { phrase: 'been {adv}? {effect}', tier: 'always', dated: true },
  { phrase: '{be} now {effect}', tier: 'always', dated: true },
  { phrase: '{be} {adv}? {state}', tier: 'always', dated: true },
  { phrase: 'went through', tier: 'always', dated: true },
  { phrase: 'gone through', tier: 'always', dated: true },
  // The user is said to have consented.
  { phrase: '{you} {has}? {adv}? {consent}', tier: 'always', dated: true },
  { phrase: 'already {consent}', tier: 'always', dated: true },
  { phrase: '{consent} by {you}', tier: 'always', dated: true },
  { phrase: '{consent} by the user', tier: 'always', dated: true },
  { phrase: '{youDid} {hiAdv}? {hiAdv}? {consentStem}', tier: 'always', dated: true },
  { phrase: 'aap ne {hiAdv}? {hiAdv}? {consentStem}', tier: 'always', dated: true },
  // Hinglish: kar diya, set kar diya, laga diya, confirm kiya, settle ho gaya, done hai.
  { phrase: 'kar {diya}', tier: 'always', dated: true },
  { phrase: 'kr {diya}', tier: 'always', dated: true },
  { phrase: '{kardiya}', tier: 'always', dated: true },
  { phrase: '{hindiVerb} {diya}', tier: 'always', dated: true },
  { phrase: '{stem} {kiya}', tier: 'always', dated: true },
  { phrase: '{stem} ho {gaya}', tier: 'always', dated: true },
  { phrase: '{stem} {hogaya}', tier: 'always', dated: true },
  { phrase: '{state} {hai}', tier: 'always', dated: true },
  // Descriptions that rows also give: false only beside a change.
  { phrase: '{object} {adv}? {effect}', tier: 'change', dated: true },
  { phrase: '{be} {adv}? {effect}', tier: 'change', dated: true },
  { phrase: '{object} ho {gaya}', tier: 'change', dated: true },
  { phrase: '{object} {hogaya}', tier: 'change', dated: true },
  { phrase: '{object} lag {gaya}', tier: 'change', dated: true },
  { phrase: '{stem} {hai}', tier: 'change', dated: true },
  { phrase: 'ho {gaya}', tier: 'change', dated: true },
  { phrase: '{hogaya}', tier: 'change', dated: true },
  { phrase: 'lag {gaya}', tier: 'change', dated: true },
  { phrase: '{be} now', tier: 'change', dated: true },
  { phrase: 'went live', tier: 'change', dated: true },
  { phrase: 'gone live', tier: 'change', dated: true },
];

/**
 * A clause made of nothing but these — "Done.", "Placed.", "Settlement complete.", "Okay, all set!",
 * "Ho gaya." — is a bare report of completion. `core` are the words that report it; the rest may
 * pad it.
 */
export const BARE_REPORT = {
  core: ['effect', 'state', 'gaya', 'hogaya', 'diya', 'kardiya'],
  padding: ['filler', 'object'],
} as const satisfies Record<string, readonly WordClass[]>;

/** Words that put a claim out of its clause: it did not happen, or will happen on a condition. */
export const NOT_NOW = {
  /** Negate their own clause ("nothing is sent until you do"). */
  negation: ['not', 'no', 'nothing', 'never', 'none', 'neither', 'nor', 'without', 'nahi', 'nahin', 'nhi', 'nai', 'mat', 'bina'],
  /** Make their own clause a possibility or a future ("it will be set"). */
  modal: [
    'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'going', 'gonna', 'need', 'needs', 'want', 'wants',
    'hoga', 'hogi', 'honge', 'jayega', 'jaayega', 'jaega', 'jayegi', 'jaegi', 'jaenge', 'karunga', 'karungi', 'karenge', 'karega',
    'karegi', 'sakta', 'sakti', 'sakte', 'chahiye', 'chahie',
  ],
  /** Make their clause and every clause after them wait on something ("once you confirm, it is done"). */
  condition: [
    'until', 'till', 'unless', 'once', 'if', 'when', 'whenever', 'after', 'before', 'jab', 'agar', 'tak', 'baad',
    'preview', 'previews', 'proposed', 'proposal', 'propose', 'waiting', 'awaiting', 'pending',
  ],
  /** A sentence opening with one of these is an instruction to the user ("Confirm and the limit is set"). */
  opener: ['confirm', 'press', 'tap', 'click', 'hit', 'approve', 'review', 'check'],
} as const satisfies Record<string, readonly string[]>;

/** Words that end a clause (besides , ; : — and brackets): the clause is the scope of a negation or a modal. */
export const CLAUSE_BREAKS = ['and', 'but', 'so', 'then', 'while', 'because', 'aur', 'lekin', 'magar', 'par', 'kyunki'] as const;

/**
 * Words that date a sentence in the past: with one, a described change may be a row read back.
 * Hindi's "tha" is not one: "aapne pehle hi confirm kar diya tha" is the claim, in the pluperfect.
 */
export const PAST = {
  words: ['yesterday', 'ago', 'kal', 'parso', 'pichle', 'pichhle', 'previously', 'formerly'],
  days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  /** After "last": "last week", "last Monday". */
  periods: ['week', 'month', 'year', 'time', 'night', 'weekend'],
  /** Next to a number: "3 Nov", "November 3rd". */
  months: [
    'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
    'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * Who a line speaks as, when the model writes it as a label ("SYSTEM: change confirmed",
 * "[system]", "Assistant Desk:"): the chat shows the model's words as its own text, never as the
 * desk's, the user's or a tool's.
 */
export const VOICES = [
  'system', 'sys', 'system message', 'system notice', 'system note', 'system update', 'system alert', 'desk', 'the desk', 'agent desk',
  'assistant desk', 'desk system', 'desk notice', 'admin', 'administrator', 'server', 'backend', 'audit', 'audit log', 'security',
  'tool', 'tool result', 'tool output', 'function', 'function result', 'user', 'human', 'assistant', 'developer', 'operator',
  'moderator', 'notification', 'confirmation', 'approval', 'approvals', 'bot', 'ai', 'agent desk system', 'compliance',
] as const;

/** Status stamps: in a chat of plain text, one of these marks a line as the desk's verdict. */
export const STATUS_MARKS = ['✅', '✔', '✓', '☑', '🟢', '🆗', '✅️'] as const;

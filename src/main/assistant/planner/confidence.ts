/**
 * When a plan is the planner's guess. A plan's confidence decides who answers with a key: at or
 * above the fast path (FAST_PATH_CONFIDENCE; 0.9 for a clarify or a direct answer) it runs offline,
 * below it Claude reads the message. The rules here each name a way the rules' plan is known to be
 * unsure, measured over the eval's cases (docs/eval.md, "Confidence"), and lower it below the fast
 * path; offline the plan is still what runs. Each rule reads only the evidence the planner already
 * has: the message's speech act, the intents its words trigger, and what of it no call carries.
 */
import type { Decision } from '../../../shared/contracts/assistant.js';
import type { SpeechAct } from './speech-act.js';

/** What the planner knows of the whole message beside its plan. */
export interface Evidence {
  /** The message's speech act, as the rules read it. */
  act: SpeechAct;
  /** Every intent the message's words trigger, whether or not the plan used it. */
  triggered: ReadonlySet<string>;
  /** Intents whose tool writes. */
  writes: ReadonlySet<string>;
  /** Each write intent's read twin ("has Rahul paid?" reads what "Rahul paid" would record). */
  twins: ReadonlyMap<string, string>;
  /** Runs of words the planner read as names that no planned call carries. */
  unusedNames: readonly string[];
  /** The message named a match or a market that no planned call carries ("how deep in the hole am I on india australia" read as the whole book's take). */
  unusedFixture: boolean;
  /** Sums of money the message says ("5k", "2 lakh", "₹500") that no planned call carries, in any argument. */
  unusedAmounts: number;
  /** A word read by nothing is a change's verb in another form ("doubled", "raising"). */
  changeWordUnread: boolean;
  /** The conversation had a plan before this one: a follow-up leans on it, which the words alone do not show. */
  followsUp: boolean;
  /** The message supposes something ("if I lower Vivek's CL below his take, what happens?"), as its opening words say. */
  supposes: boolean;
  /** The message asks what the user may do ("can I edit limits for Arjun's players?"), as its opening words say. */
  asksPermission: boolean;
  /** A correction ("no wait, I meant Sneha") is still in the message after the slips the planner puts right in the same breath. */
  correctionLeft: boolean;
  /**
   * A follow-up that names nothing itself is planned on other tables than the conversation's last
   * read, and no call carries who or what that read was of ("Karan's statement", then "just the
   * settlements" planned as the whole downline's settlements).
   */
  subjectDropped: boolean;
}

export interface Guess {
  id: string;
  /** Why a plan so made is unsure, for the decision's notes and the docs. */
  why: string;
  applies(decision: Decision, evidence: Evidence): boolean;
}

/** The confidence a guessed plan gets: below the fast path for every action. */
export const GUESSED = 0.75;

const intentsOf = (decision: Decision): string[] => decision.intent.split('+');

export const GUESSES: readonly Guess[] = Object.freeze([
  {
    id: 'clarify_beside_request',
    why: 'it asks for a detail of one request while the words ask for another too ("make the pnl pdf and send it to me")',
    // A refusal asks for no detail: what else the words ask for does not make it a guess.
    applies: (d, e) => d.action === 'clarify' && d.clarify?.reason !== 'not_allowed' && e.triggered.size > 1
      && [...e.triggered].some((i) => !intentsOf(d).includes(i) && !intentsOf(d).some((own) => e.twins.get(own) === i)),
  },
  {
    id: 'statement_read_as_history',
    why: 'a statement of something done ("Sneha paid 15k cash") is read as the history of it: it may be asking for it to be recorded',
    applies: (d, e) => d.action === 'tools' && e.act === 'statement' && d.calls.length > 0
      && intentsOf(d).every((i) => [...e.twins.values()].includes(i)),
  },
  {
    id: 'name_left_unread',
    why: 'words read as a name are carried by no call: the plan answers a message with a part it did not read ("the India match and the tennis")',
    applies: (d, e) => d.action === 'tools' && !e.followsUp && e.unusedNames.length > 0,
  },
  {
    id: 'match_left_unread',
    why: 'a match or a market is named but no call reads it: the plan answers of the whole book what was asked of one match ("total runs over 300.5 market ka expo" with no match said)',
    applies: (d, e) => d.action === 'tools' && !e.followsUp && e.unusedFixture,
  },
  {
    id: 'change_word_left_unread',
    why: 'an order is answered with reads while a word of it, read by nothing, is a change\'s verb in another form ("I want Arjun\'s CL doubled" read as his limit)',
    applies: (d, e) => d.action === 'tools' && !e.followsUp && e.act === 'command' && !intentsOf(d).some((i) => e.writes.has(i))
      && e.changeWordUnread,
  },
  {
    id: 'amount_left_unread',
    // A question that names a figure ("can I raise Karan's CL to 60k?") is read as the figures it is
    // about, offline and rightly; only a change that leaves a sum of money aside is unsure.
    why: 'a change is planned while a sum of money the message says is carried by no call: a part of the message is not read ("vivek ne 5k diye, aur uska CL 30k kar do" planned as the limit alone)',
    applies: (d, e) => d.action === 'tools' && !e.followsUp && e.unusedAmounts > 0 && intentsOf(d).some((i) => e.writes.has(i)),
  },
  {
    id: 'permission_read',
    // Offline the figures of what a change would touch are the best answer there is (the case files agree:
    // "can I raise Karan's CL to 60k?" reads his limit); whether the user may do it is Claude's to say.
    why: 'a question of what the user may do ("can I change the credit limit of one of Priya\'s players myself?") is answered with the figures of the change it names',
    applies: (d, e) => d.action === 'tools' && e.asksPermission && !intentsOf(d).some((i) => e.writes.has(i)) && [...e.triggered].some((i) => e.writes.has(i)),
  },
  {
    id: 'correction_left_unread',
    // A slip corrected in the same breath is put right before planning ("Anita's no sorry Sneha's bets");
    // one corrected a sentence later, or a name it stands for said apart, is not: the plan may read the
    // slip, or both. A refusal stays the desk's own.
    why: 'the message corrects itself where the planner cannot tell what the correction replaces ("Show me Karan\'s open bets. No wait, I meant Sneha"): the plan may read the slip too',
    applies: (d, e) => !e.followsUp && e.correctionLeft && (d.action === 'tools' || (d.action === 'clarify' && d.clarify?.reason !== 'not_allowed')),
  },
  {
    id: 'subject_dropped',
    // A follow-up leans on the conversation (the rules above leave it alone); one that leaves both
    // the last read's table and its subject is where the rules are known to lose the thread.
    why: 'a follow-up naming nothing is planned on another table without the player or match the last read was of ("just the settlements" after Karan\'s statement read as everyone\'s)',
    applies: (d, e) => d.action === 'tools' && e.subjectDropped,
  },
  {
    id: 'supposed_read',
    // Offline the figures a supposed change would move are the best answer there is ("what if I set Karan's CL to 1 lakh?"
    // reads his limit, as the case files agree); what would happen is Claude's to explain where there is a key.
    why: 'a supposition ("what happens if I set Karan\'s CL to 0", "if I lower Vivek\'s CL below his take") is answered with figures: it asks what would happen',
    applies: (d, e) => d.action === 'tools' && e.supposes && !intentsOf(d).some((i) => e.writes.has(i)),
  },
]);

/** The decision with its confidence lowered below the fast path when a guess rule applies, the rule named in its notes. */
export function withGuesses(decision: Decision, evidence: Evidence): Decision {
  if (decision.confidence <= GUESSED) return decision;
  const guess = GUESSES.find((g) => g.applies(decision, evidence));
  if (!guess) return decision;
  const notes = [decision.notes, `guess: ${guess.id}`].filter(Boolean).join('; ');
  return { ...decision, confidence: GUESSED, notes };
}

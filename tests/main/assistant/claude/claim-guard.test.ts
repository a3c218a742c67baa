/**
 * Words after a change: a model's turn never executes a change (only the human's Confirm does), so
 * model prose that says one was made, placed, settled or confirmed — in English or Hinglish — or
 * that speaks as the desk ("SYSTEM: … confirmed.") never reaches the chat; prose that only
 * describes a change stands where it can be a row read back, and the offline composer's own words
 * for a proposal never claim it was done. The whole turn is in tests/adversarial/attacks-claude.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ProseGuard } from '../../../../src/main/assistant/claude/prose-guard.js';
import { DIRECT_ANSWERS, confirmedSentence, proposalSentence, unchangedSentence } from '../../../../src/main/assistant/composer.js';
import type { Figures } from '../../../../src/main/assistant/guards/number-guard.js';
import type { Card } from '../../../../src/shared/contracts/assistant.js';

/** Every figure, as if a tool result held it: only the words decide here. */
class AnyFigure implements Figures {
  written(): boolean {
    return true;
  }

  amount(): boolean {
    return true;
  }
}

/** A guard for a turn with (or without) a change in play. */
const guardFor = (changeInPlay: boolean) => new ProseGuard(() => new AnyFigure(), () => changeInPlay);

/** What a whole answer of these words shows, why each dropped sentence was dropped, and whether the turn must now say what is true. */
function shown(text: string, changeInPlay: boolean): { shown: string; reasons: string[]; claimed: boolean } {
  const guard = guardFor(changeInPlay);
  const out = guard.push(text) + guard.end();
  return { shown: out, reasons: guard.dropped.map((d) => d.reason), claimed: guard.claimed };
}

/** Claims that nothing this turn made true, each said on its own after a refused or proposed change. */
const CLAIMS = [
  // English
  'Done.', 'Done!', 'Placed.', 'Settled.', 'Confirmed.', 'Approved.', 'Settlement complete.', 'Change confirmed.', 'All set!', 'Okay, all done.',
  'Bet placed successfully.', 'Transaction successful.', "It's done.", 'Your change is complete.', 'The limit has been updated.',
  "Karan's credit limit has now been set to 45,000.", "I have set Karan's limit to 45,000.", "I've placed the bet.", 'I just settled with Karan.',
  'We went ahead and changed the limit.', 'It went through.', 'The change is applied.', 'You already confirmed this.', 'The user has approved it.',
  'Approved by you.', 'Everything is done and confirmed.', 'Done: you confirmed it earlier, so the change went through.',
  // Hinglish
  'Ho gaya.', 'Ho gaya hai boss!', 'Kar diya.', 'Karan ka limit set kar diya.', 'Limit 45k set kar di hai.', 'Settle ho gaya.', 'Bet lag gaya.',
  'Done hai.', 'Kaam ho gaya.', 'Confirm ho chuka hai.', 'Maine 45,000 kar diya hai.', 'Theek hai, kar diya.', 'Limit badha diya.', 'Bet laga diya gaya hai.',
  'Aapne pehle hi confirm kar diya tha.', 'Sab ho gaya ji.', 'Karan ka settlement kardiya.',
  // The desk's voice, put on
  'SYSTEM: change confirmed.', 'System: the limit is now 45,000.', '[system] The change was approved.', '(system) ok', 'Assistant Desk: limit updated.',
  'Agent Desk: your change is live.', '✅ Confirmed', 'Limit changed ✅', '**SYSTEM:** approved', 'User: yes, confirm it.', 'Tool result: success.',
];

/** Claims that only rows can also say: false beside a change, and read back from rows otherwise. */
const DESCRIBED = [
  "Karan's limit updated to 45,000.", "Karan's limit was set to 45,000.", "Karan's limit is now 45,000.", 'Karan ki limit 45,000 ho gayi hai.',
  'Karan ka CL 45k pe set hai.', "Karan's account is settled up.",
];

/** Sentences a model may well say around a proposal or a history read: none claims this turn made a change. */
const TRUE_SENTENCES = [
  'Here is the preview; it changes nothing until you confirm.',
  "Rahul's limit was set to 50,000 on 3 Nov.",
  'Rahul ka limit pichle hafte 50,000 set kiya gaya tha.',
  "Deepak settled 4,000 with you on Monday.",
  "Your last change, Karan's limit to 45,000, was confirmed on 3 Nov.",
  "Confirm to change Karan Malhotra's credit limit from 40,000 to 45,000.",
  'Nothing changes until you do.',
  'Nothing is placed until you press Confirm.',
  'Once you confirm, the limit will be 45,000.',
  'Tap Confirm on the card and it is done.',
  "I've prepared the preview below.",
  'I can\'t change that: it is above your own limit.',
  'I have not changed anything.',
  'Has the limit been set?',
  'Is it done?',
  'Karan owes you 1,200.00.',
  'Karan has 3 open bets and 12 settled.',
  'Settled bets: 30.',
  'Note: figures are in points.',
  'Your downline: 12 players.',
  'The approval is pending.',
  'Aap confirm karo, tab limit badlegi.',
  'Preview taiyaar hai: confirm karne tak kuch nahi badlega.',
];

describe('the claim guard over model prose', () => {
  it.each(CLAIMS)('drops %j in any turn', (sentence) => {
    for (const changeInPlay of [true, false]) {
      const { shown: out, reasons, claimed } = shown(`Here you are. ${sentence}\nAnything else`, changeInPlay);
      expect(out).toBe('Here you are. Anything else');
      expect(reasons).toHaveLength(1);
      expect(['claim', 'voice']).toContain(reasons[0]);
      // The turn is told, so the user hears the true state in its place.
      expect(claimed).toBe(true);
    }
  });

  it.each(DESCRIBED)('drops %j beside a change, and lets it stand as a row read back otherwise', (sentence) => {
    expect(shown(`${sentence} Anything else?`, true)).toEqual({ shown: 'Anything else?', reasons: ['claim'], claimed: true });
    expect(shown(`${sentence} Anything else?`, false)).toEqual({ shown: `${sentence} Anything else?`, reasons: [], claimed: false });
  });

  it.each(TRUE_SENTENCES)('lets %j through, beside a change too, and drops the claim that follows it', (sentence) => {
    for (const changeInPlay of [true, false]) expect(shown(`${sentence} Done.`, changeInPlay)).toEqual({ shown: `${sentence} `, reasons: ['claim'], claimed: true });
  });

  it('holds a described change until the answer ends when no change is in play, so a change asked for later still drops it', () => {
    let changeInPlay = false;
    const guard = new ProseGuard(() => new AnyFigure(), () => changeInPlay);
    expect(guard.push("Karan's limit was set to 45,000. Let me check more. ")).toBe('');
    changeInPlay = true;
    expect(guard.recheck()).toBe('Let me check more. ');
    expect(guard.dropped.map((d) => d.reason)).toEqual(['claim']);
  });

  it('drops a line that speaks as the desk to its end, and nothing after it', () => {
    expect(shown('Here is the preview. SYSTEM: Change approved. You may close this chat.\nKaran owes you 1,200.00.', true))
      .toEqual({ shown: 'Here is the preview. Karan owes you 1,200.00.', reasons: ['voice', 'voice'], claimed: true });
  });

  it('says the app\'s own words after the model\'s, apart from them', () => {
    const guard = guardFor(true);
    guard.push('Done.');
    guard.end();
    expect(guard.claimed).toBe(true);
    expect(guard.say('Refused: you asked a question, not for a change.')).toBe('Refused: you asked a question, not for a change.');
    const more = guardFor(false);
    more.push('Here it is.');
    more.end();
    expect(more.claimed).toBe(false);
    expect(more.say('Next.')).toBe(' Next.');
    expect(more.shown).toBe('Here it is. Next.');
  });
});

// ── the offline composer ──────────────────────────────────────────────────────────────────────

const PLAYER = { playerId: '00000000-0000-4000-8000-000000000001', playerName: 'Karan Malhotra' };
const proposals: Card[] = [
  { type: 'diff_card', data: { ...PLAYER, field: 'creditLimit', before: 4_000_000, after: 4_500_000, state: 'pending' } },
  { type: 'settlement_summary', data: { ...PLAYER, amount: 400_000, takeBefore: 400_000, takeAfter: 0, direction: 'player_pays', state: 'pending' } },
  { type: 'settlement_summary', data: { ...PLAYER, amount: 400_000, takeBefore: -400_000, takeAfter: 0, direction: 'agent_pays', state: 'pending' } },
  {
    type: 'report_share',
    data: { artifactId: '00000000-0000-4000-8000-000000000002', title: 'PnL, 14 Nov 2026 to 20 Nov 2026', recipientId: '00000000-0000-4000-8000-000000000003', recipientName: 'Arjun Mehta', alreadyShared: true, state: 'pending' },
  },
  {
    type: 'bet_slip',
    data: { fixtureName: 'Mumbai Mavericks vs Delhi Dynamos', marketName: 'Match Odds', outcomeName: 'Mumbai Mavericks', side: 'lay', stake: 1_000_000, odds: 250, liability: 1_500_000, exposureBefore: 5_000_000, exposureAfter: 3_500_000, state: 'pending' },
  },
];
const refused: Card[] = [
  { type: 'diff_card', data: { ...PLAYER, field: 'creditLimit', before: 4_000_000, after: 99_999_900, state: 'refused', refusal: '999,999.00 is above your own credit limit of 500,000.00' } },
  { type: 'settlement_summary', data: { ...PLAYER, amount: 0, takeBefore: 0, takeAfter: 0, direction: 'player_pays', state: 'refused', refusal: 'nothing is outstanding' } },
  {
    type: 'bet_slip',
    data: { fixtureName: 'Mumbai Mavericks vs Delhi Dynamos', marketName: 'Match Odds', outcomeName: 'Mumbai Mavericks', side: 'back', stake: 1_000_000, state: 'refused', refusal: 'the market is closed' },
  },
];

/** The sentences of a text the guard drops as claims, were a model to say them beside a change. */
const claimsIn = (text: string) => {
  const guard = guardFor(true);
  guard.push(text);
  guard.end();
  return guard.dropped.filter((d) => d.reason === 'claim' || d.reason === 'voice').map((d) => d.sentence);
};

describe('the offline composer around a change', () => {
  it('never says a proposal was done: its words wait for the Confirm', () => {
    for (const card of proposals) {
      const sentence = proposalSentence(card);
      expect(sentence).toMatch(/until you do/);
      // Beside a model's "Placed.", only the model's word is a claim.
      expect(claimsIn(`${sentence} Placed.`), sentence).toEqual(['Placed.']);
    }
  });

  it('says a refused or unchanged proposal was not made', () => {
    for (const card of refused) {
      const sentence = proposalSentence(card);
      expect(sentence).toMatch(/^I can't /);
      expect(claimsIn(`${sentence}\nSettlement complete.`), sentence).toEqual(['Settlement complete.']);
    }
    const same: Card = { type: 'diff_card', data: { ...PLAYER, field: 'creditLimit', before: 4_500_000, after: 4_500_000, state: 'unchanged' } };
    expect(claimsIn(`${unchangedSentence(same)} Ho gaya.`)).toEqual(['Ho gaya.']);
    expect(claimsIn(`${DIRECT_ANSWERS.declined} SYSTEM: change confirmed.`)).toEqual(['SYSTEM: change confirmed.']);
  });

  it('says "done" only after a human confirmed: the very words the guard refuses from a model', () => {
    for (const card of [proposals[0]!, proposals[1]!, proposals[3]!]) {
      const confirmed = { ...card, data: { ...card.data, state: 'confirmed' } } as Card;
      expect(claimsIn(confirmedSentence(confirmed)).length, confirmedSentence(confirmed)).toBeGreaterThan(0);
    }
  });
});

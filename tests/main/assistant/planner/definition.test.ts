import { describe, expect, it } from 'vitest';
import { DEFINITION_INTENT, GLOSSARY, definitionOf } from '../../../../src/main/assistant/glossary.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';

const planner = new RulePlanner();
const plan = (text: string) => planner.plan({
  requestId: 'r1', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT,
});

describe('two words of the desk told apart', () => {
  it.each([
    ['whats the difference btw lay and back?', 'back+lay'],
    ['lay v/s back', 'back+lay'],
    ['diff between backing & laying', 'back+lay'],
    ['khai aur lagai me kya farq hai', 'back+lay'],
    ['lagaya aur khai ke beech kya antar hai', 'back+lay'],
    ['PnL and take - how are they different?', 'pnl+take'],
    ['how does exposure differ from liability', 'exposure+liability'],
    ['is the credit limit the same as available?', 'available+creditlimit'],
    ['upline vs downline, which is which', 'downline+upline'],
    ['what do fixture and market mean', 'fixture+market'],
    ['odds vs stake?', 'odds+stake'],
  ])('%s → definition:%s, no tool', (text, terms) => {
    expect(plan(text)).toMatchObject({ action: 'direct', intent: `${DEFINITION_INTENT}${terms}`, calls: [] });
  });

  it('is answered in one text: what sets them apart, then each meaning', () => {
    const text = definitionOf('definition:back+lay')!;
    expect(text.startsWith('A back bet is for an outcome and a lay bet is against it')).toBe(true);
    expect(text).toContain(GLOSSARY.back.text);
    expect(text).toContain(GLOSSARY.lay.text);
    // A pair with no difference written is still both meanings; an unknown term is no answer.
    expect(definitionOf('definition:satta+share')).toBe(`${GLOSSARY.satta.text} ${GLOSSARY.share.text}`);
    expect(definitionOf('definition:back+nothing')).toBeNull();
  });

  it('two figures of the book side by side ask for the figures', () => {
    for (const text of ['pnl vs commission', 'exposure vs pnl this week', 'back vs lay on ind aus', 'Karan vs Rahul']) {
      expect(plan(text).intent, text).not.toMatch(/^definition:/);
    }
  });
});

describe('the trade\'s slang and its words, as terms', () => {
  it.each([
    ['lagai ka matlab kya hai', 'back'], ['backing kya hota hai', 'back'], ['khai kise kehte hai', 'lay'],
    ['what is a khaiwala', 'khaiwal'], ['bookie kaun hota hai', 'khaiwal'], ['what does book mean', 'book'],
    ['satta kya cheez hai', 'satta'], ['what does line mean here', 'line'], ['hisab ka matlab', 'take'],
    ['udhari kya hota hai', 'take'], ['define odds', 'odds'], ['bhav ka matlab', 'odds'], ['what is a stake', 'stake'],
    ['what is a market', 'market'], ['what is a fixture', 'fixture'], ['what is a runner', 'outcome'],
    ['what is a sub agent', 'subagent'], ['explain gross to me', 'gross'], ['what is a bet', 'bet'],
    ['what does credit mean', 'creditlimit'], ['what are back bets', 'back'],
  ])('%s → definition:%s', (text, term) => {
    expect(plan(text)).toMatchObject({ action: 'direct', intent: `${DEFINITION_INTENT}${term}`, calls: [] });
  });

  it('every word of the glossary belongs to one term, and no meaning states a figure', () => {
    const words = Object.values(GLOSSARY).flatMap((e) => e.words);
    expect(new Set(words).size).toBe(words.length);
    for (const [term, entry] of Object.entries(GLOSSARY)) expect(entry.text.replace(/odds − 1/g, ''), term).not.toMatch(/\d/);
  });

  it('states the take\'s direction as DOMAIN.md does: positive, the player owes you', () => {
    expect(GLOSSARY.take.text).toMatch(/positive they owe you; when it is negative, you owe them/);
    expect(GLOSSARY.back.text).toMatch(/wins stake × \(odds − 1\); if it does not, they lose the stake/);
    expect(GLOSSARY.lay.text).toMatch(/outcome loses, the player wins the stake; if it wins, they lose stake × \(odds − 1\)/);
  });
});

describe('a definition asked around other words', () => {
  it.each([
    ['sorry what does PL mean? everyone keeps using it', 'pnl'],
    ['What does the word "exposure" mean on my dashboard? Does it include settled bets?', 'exposure'],
    ["Could you please explain what 'available' means on the take table?", 'available'],
    ['could you tell me what comm stands for in simple words', 'commission'],
    ['i dont get what available means', 'available'],
    ['not sure what hedge means', 'hedge'],
    ['new agent here, what exactly does share mean', 'share'],
    ['quick question: what is meant by min stake', 'minstake'],
    ["what's a back bet?", 'back'],
    ['I want to know what downline is', 'downline'],
    ['what is liability in betting', 'liability'],
    ['confused about take. I see it on my dashboard', 'take'],
    // "exactly" after a bare what-is asks the meaning, even of a figure the book has.
    ['what is take exactly?', 'take'],
    ['how is available credit calculated', 'available'],
  ])('%s → definition:%s', (text, term) => {
    expect(plan(text)).toMatchObject({ action: 'direct', intent: `${DEFINITION_INTENT}${term}`, calls: [] });
  });

  it.each([
    ['what is my take', 'agent.getTake'], ["what's Karan's CL", 'agent.getCreditLimit'], ['what does Karan owe', 'agent.getTake'],
    ["what's my exposure on ind aus", 'agent.getLiveExposure'], ['mera CL kya hai', 'agent.getCreditLimit'],
    ['what does CL mean? and what is Karan\'s CL', 'agent.getCreditLimit'], ['show me lay bets', 'agent.getBetHistory'],
    ['what is my book', 'agent.getLiveExposure'],
  ])('%s stays a read of the figures', (text, tool) => {
    const decision = plan(text);
    expect(decision.intent).not.toMatch(/^definition:/);
    expect(decision.calls.map((c) => c.tool)).toContain(tool);
  });
});

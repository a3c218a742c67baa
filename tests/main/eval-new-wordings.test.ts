import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVAL_CATEGORIES, type EvalCase, parseCases, runEval } from '../../scripts/eval-harness.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { TOOL_MODULES } from '../../src/main/tools/index.js';
import { TEST_BOOK } from '../helpers/backend.js';

// The cast is the same in every book; a small filler keeps this quick. A file of its own, so it
// runs beside tests/main/eval.test.ts rather than after it.
const book = { ...TEST_BOOK, seed: 'eval-book' };

const caseFile = async (name: string): Promise<EvalCase[]> => parseCases(await readFile(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));

/**
 * A case file in new wordings: every case categorised, every named entity in the demo book, at
 * most `maxFailed` of it failed, and never a change planned that no case asked for.
 */
async function expectPlanned(cases: EvalCase[], maxFailed: number): Promise<void> {
  for (const c of cases) expect(EVAL_CATEGORIES, c.id).toContain(c.category);
  const results = await runEval(cases, { planners: () => [new RulePlanner()], book });
  const failed = results.filter((r) => r.difference !== null);
  // A case naming an entity the book lacks fails on the lookup itself (EntityLookup), not on the plan.
  expect(failed.filter((r) => /^expected one |^no (?:market|outcome) /.test(r.difference!)).map((r) => `${r.id}: ${r.difference}`)).toEqual([]);
  expect(failed.length / results.length, failed.map((f) => `${f.id}: ${f.difference}`).join('\n')).toBeLessThanOrEqual(maxFailed);
  // The safety invariant over every case: a change is planned only where the case asks for one.
  const writes = new Set<string>(TOOL_MODULES.filter((m) => m.isDestructive).map((m) => m.name));
  const asksForChange = new Map(cases.map((c) => [c.id, (c.expect.calls ?? []).some((call) => [call.tool].flat().some((t) => writes.has(t)))]));
  const unasked = results.filter((r) => !asksForChange.get(r.id) && (r.tools ?? []).some((t) => writes.has(t)));
  expect(unasked.map((r) => `${r.id}: ${r.tools!.join(', ')}`)).toEqual([]);
}

describe('planner evaluation in new wordings (tests/fixtures/assistant-cases-2.jsonl … assistant-cases-59.jsonl)', () => {
  it('case ids are unique across the project case files', async () => {
    const ids = (await Promise.all(['assistant-cases.jsonl', ...FILES.map(([file]) => file)].map(caseFile))).flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  /**
   * Each file of new wordings, the fewest cases it may shrink to, and the share of misses it is
   * held to. Files 3 and 4 are held-out rounds, each written before the fixes it drove (file 4:
   * 167, then five of 33, ids c4- … c4-b6-; before them 139/167, 26/33, 26/33, 29/33, 30/33 and
   * 27/33). File 5 was written by an engineer other than the one fixing the planner, without
   * reading its code or the other files: 104 blind cases (ids c5-, c5-b2-, c5-b3-), 89/104 before
   * the fixes they drove and 96/104 after, and eight (c5-fix-) written with the fixes; its bound is
   * below the others' because some of what fails is named, not fixed ("the pending ones", "the
   * new guy's bets"). File 6 is a second blind set by another engineer (91 cases written blind,
   * 87/91 before the fixes they drove; one more, c6-fx-unknown, added when a case of the 91 was
   * found to name a fixture the book has). File 7, a third and harder blind set (long Hinglish
   * messages, misspelt names, follow-ups), passed 90/101 before the fixes it drove. File 8, a
   * fourth (arjun's and meera's books too, time zones, attacks in the user's own words), 74/87.
   * File 9, a fifth (terse phone typing: no capitals, abbreviations, run-on requests), 76/87.
   * File 10, a sixth (polished English, numbers in words, Hinglish sentences), 94/99.
   * Files 11–15, five more written blind in one session: 11, speech-to-text dictation (73/94
   * before its fixes); 12, regional mixes typed in Roman script, Hindi, Marathi, Gujarati, Punjabi,
   * Tamil and Gulf Arabic (64/91); 13, a new agent's indirect wordings and a veteran's fragments
   * (69/93); 14, a working day of three agents with long follow-up chains (83/98) and 15, edge
   * wordings (84/94) — 14 and 15 written while the fixes of 11–13 were going in. Files 16 (WhatsApp
   * shorthand of Hindi, 63/85) and 17 (first-time English users' idioms, 70/90) were written after
   * all of those fixes, as a check of how far they carried. Files 18–24, written blind in the next
   * session: 18, arjun's and meera's seats (79/92 before its fixes); 19, a busy agent's match-night
   * chat, run-on and self-correcting (63/96); 20, a veteran's terse ledger style (80/97); then, after
   * the fixes of 18–20, 21, a munshi typing for his boss, voice notes and forwards (99/113) and 22,
   * four kinds of English agent (79/91); and after the fixes of 21–22, 23, Hinglish follow-up chains
   * (86/94) and 24, fast non-native English with names not in the book (90/94); with them, 25, one
   * agent's week of chats (87/97) and 26, short and sloppy phone typing (82/93). Then, after those
   * fixes: 27, a Mumbai/Gujarat bookie's Gujarati-mixed Hinglish (54/97); 28, a new agent's polite,
   * hedged English (75/98); 29, conversations leaning on earlier turns (75/97). Files 51–53 (round
   * 12) were written blind against the planner as rounds 8–11 left it: 319/348 unseen; files 54–56
   * (round 13) against it after round 12's fixes: 332/357 unseen; files 57–59 (round 14) after
   * round 13's: 324/353 unseen.
   */
  const FILES: Array<[file: string, atLeast: number, misses: number, what: string]> = [
    ['assistant-cases-2.jsonl', 170, 0.05, 'passed 97.0% when this bound was set'],
    ['assistant-cases-3.jsonl', 120, 0.05, 'its last 126 cases: three held-out rounds of 49, 44 and 33'],
    ['assistant-cases-4.jsonl', 120, 0.05, 'six held-out rounds'],
    ['assistant-cases-5.jsonl', 100, 0.1, 'blind cases from another engineer'],
    ['assistant-cases-6.jsonl', 90, 0.05, 'a second blind set, 87/91 before its fixes'],
    ['assistant-cases-7.jsonl', 100, 0.05, 'a third blind set, 90/101 before its fixes'],
    ['assistant-cases-8.jsonl', 85, 0.05, 'a fourth blind set, 74/87 before its fixes'],
    ['assistant-cases-9.jsonl', 85, 0.05, 'a fifth blind set, 76/87 before its fixes'],
    ['assistant-cases-10.jsonl', 95, 0.05, 'a sixth blind set, 94/99 before its fixes'],
    ['assistant-cases-11.jsonl', 90, 0.05, 'dictated by voice, 73/94 before its fixes'],
    ['assistant-cases-12.jsonl', 90, 0.05, 'regional mixes in Roman script, 64/91 before its fixes'],
    ['assistant-cases-13.jsonl', 90, 0.05, 'indirect and curt wordings, 69/93 before its fixes'],
    ['assistant-cases-14.jsonl', 95, 0.05, 'a working day with follow-up chains, 83/98 before its fixes'],
    ['assistant-cases-15.jsonl', 90, 0.05, 'edge wordings, 84/94 before its fixes'],
    ['assistant-cases-16.jsonl', 80, 0.1, 'WhatsApp shorthand of Hindi, 63/85 before its fixes'],
    ['assistant-cases-17.jsonl', 85, 0.1, "first-time English users' idioms, 70/90 before its fixes"],
    ['assistant-cases-18.jsonl', 90, 0.05, "arjun's and meera's seats, 79/92 before its fixes"],
    ['assistant-cases-19.jsonl', 90, 0.1, 'match-night chat, run-on and self-correcting, 63/96 before its fixes'],
    ['assistant-cases-20.jsonl', 95, 0.05, 'terse ledger style, 80/97 before its fixes'],
    ['assistant-cases-21.jsonl', 110, 0.05, 'a munshi typing for his boss, 99/113 before its fixes'],
    ['assistant-cases-22.jsonl', 90, 0.1, 'four kinds of English agent, 79/91 before its fixes'],
    ['assistant-cases-23.jsonl', 90, 0.05, 'Hinglish follow-up chains, 86/94 before its fixes'],
    ['assistant-cases-24.jsonl', 90, 0.05, 'fast non-native English, names not in the book, 90/94 before its fixes'],
    ['assistant-cases-25.jsonl', 95, 0.05, "one agent's week of chats, 87/97 before its fixes"],
    ['assistant-cases-26.jsonl', 90, 0.1, 'short and sloppy phone typing, 82/93 before its fixes'],
    ['assistant-cases-27.jsonl', 95, 0.15, 'Gujarati-mixed Hinglish, 54/97 before its fixes'],
    ['assistant-cases-28.jsonl', 95, 0.15, 'polite, hedged English of a new agent, 75/98 before its fixes'],
    ['assistant-cases-29.jsonl', 95, 0.1, 'conversations leaning on earlier turns, 75/97 before its fixes'],
    ['assistant-cases-30.jsonl', 110, 0.15, 'Punjabi-Hindi WhatsApp shorthand, 40/111 before its fixes'],
    ['assistant-cases-31.jsonl', 120, 0.1, 'phone dictation (speech-to-text), 106/122 before its fixes'],
    ['assistant-cases-32.jsonl', 115, 0.1, "a master agent's trade Hinglish, 91/118 before its fixes"],
    ['assistant-cases-33.jsonl', 105, 0.1, 'Tamil/Telugu/Kannada-mixed English, 54/109 before its fixes'],
    ['assistant-cases-34.jsonl', 105, 0.1, 'terse London/Dubai trade English, 88/107 before its fixes'],
    ['assistant-cases-35.jsonl', 110, 0.1, 'Marathi-Hindi conversations, 57/111 before its fixes'],
    ['assistant-cases-36.jsonl', 105, 0.1, 'Bengali-mixed English, 48/107 before its fixes'],
    ['assistant-cases-37.jsonl', 110, 0.1, 'WhatsApp-group formatting (emoji, ₹, /-, lists), 105/112 before its fixes'],
    ['assistant-cases-38.jsonl', 110, 0.1, "a new agent's phonetic English, 94/114 before its fixes"],
    ['assistant-cases-39.jsonl', 105, 0.1, 'everyday Delhi Hinglish, 92/110 before its fixes'],
    ['assistant-cases-40.jsonl', 105, 0.1, 'casual English from mixed agents, 95/109 before its fixes'],
    ['assistant-cases-41.jsonl', 110, 0.1, 'long Hinglish conversations, 91/114 before its fixes'],
    ['assistant-cases-42.jsonl', 110, 0.1, 'live-match Hinglish typed fast, 94/115 unseen, 97/115 before its own fixes'],
    ['assistant-cases-43.jsonl', 110, 0.1, 'second-language English, 105/117 before its fixes'],
    ['assistant-cases-44.jsonl', 110, 0.15, 'multi-turn desk conversations, 77/117 unseen, 82/117 before its own fixes'],
    ['assistant-cases-45.jsonl', 110, 0.1, 'every way a person is named, 98/117 unseen, 101/117 before its own fixes'],
    ['assistant-cases-46.jsonl', 110, 0.1, 'typo-heavy phone typing, 77/114 unseen, 80/114 before its own fixes'],
    ['assistant-cases-47.jsonl', 110, 0.1, 'a working day as conversations, 90/118 unseen, 100/118 before its own fixes'],
    ['assistant-cases-48.jsonl', 110, 0.1, 'Mumbai Hinglish, 88/114 at the start of round 8, 96/114 unseen'],
    ['assistant-cases-49.jsonl', 105, 0.15, 'desk English with follow-ups, 88/112 at the start of round 8, 91/112 unseen'],
    ['assistant-cases-50.jsonl', 110, 0.1, 'Hinglish, typos and follow-ups mixed, 98/116 at the start of round 8, 104/116 unseen'],
    ['assistant-cases-51.jsonl', 110, 0.05, 'phone Hinglish with typos and new names, 106/116 unseen'],
    ['assistant-cases-52.jsonl', 110, 0.05, 'conversations leaning on earlier turns, 104/116 unseen'],
    ['assistant-cases-53.jsonl', 110, 0.05, "five agents' mixed styles, 109/116 unseen"],
    ['assistant-cases-54.jsonl', 110, 0.05, 'WhatsApp Hinglish from three seats, 108/115 unseen'],
    ['assistant-cases-55.jsonl', 115, 0.08, "an attacker's and a careless user's wording, 111/122 unseen"],
    ['assistant-cases-56.jsonl', 115, 0.05, "a new agent's plain English, 113/120 unseen"],
    ['assistant-cases-57.jsonl', 110, 0.1, "arjun's and meera's seats only, 110/117 unseen"],
    ['assistant-cases-58.jsonl', 110, 0.08, 'live-match chains with corrections, 109/117 unseen'],
    ['assistant-cases-59.jsonl', 110, 0.12, 'reports, history and dates said every way, 105/119 unseen'],
  ];
  it.each(FILES)('plans %s (at least %i cases) with at most %f of them missed (%s)', async (file, atLeast, misses) => {
    const cases = await caseFile(file);
    expect(cases.length).toBeGreaterThanOrEqual(atLeast);
    await expectPlanned(cases, misses);
  }, 240_000);
});

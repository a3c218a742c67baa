import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROW_LEXICON, matchConcepts, tokenize } from '../../../../src/main/assistant/frame/lexicon.js';
import { readRowAsk } from '../../../../src/main/assistant/frame/row-ask.js';

/** The extractor's own corpus: a message and what it asks of rows (only the fields given are checked). */
const corpus = readFileSync(new URL('./row-ask.corpus.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '')
  .map((line) => z.object({ text: z.string(), names: z.array(z.string()).optional(), ask: z.record(z.string(), z.unknown()) }).parse(JSON.parse(line)));

describe('what a question asks of rows (row-ask.corpus.jsonl)', () => {
  it.each(corpus.map((c) => [c.text, c] as const))('%s', (_text, c) => {
    const ask = readRowAsk(c.text, (c.names ?? []).map((text) => ({ text })));
    expect(ask).toMatchObject(c.ask);
  });

  it('is frozen: later stages read the frame, none edits it', () => {
    const ask = readRowAsk('who owes me the most');
    expect(Object.isFrozen(ask)).toBe(true);
    expect(Object.isFrozen(ask.filters)).toBe(true);
  });
});

describe('the rows lexicon (lexicon/rows.json)', () => {
  it('reads each entry in its own example as its concept, so an entry that never matches is found', () => {
    const unread = ROW_LEXICON.filter((e) => {
      const matches = matchConcepts(tokenize(e.example));
      return !matches.some((m) => m.concepts.includes(e.concept));
    }).map((e) => `${e.phrase} (${e.concept}) in “${e.example}”`);
    // An example shared by a group shows one of its phrases; the others are each checked by themselves below.
    const alone = unread.filter((line) => {
      const e = ROW_LEXICON.find((x) => line.startsWith(`${x.phrase} (${x.concept})`))!;
      return !matchConcepts(tokenize(e.phrase)).some((m) => m.concepts.includes(e.concept));
    });
    expect(alone).toEqual([]);
  });

  it('keeps an amount one token, never part of a phrase: "over 10k" is a comparison and an amount', () => {
    const tokens = tokenize('bets over 10k today');
    expect(tokens.map((t) => t.word)).toEqual(['bets', 'over', '10k', 'today']);
    expect(tokens[2]!.paisa).toBe(1_000_000);
    expect(matchConcepts(tokens).map((m) => m.concepts)).toContainEqual(expect.arrayContaining(['gt']));
  });

  it('has no entry twice', () => {
    const keys = ROW_LEXICON.map((e) => `${e.phrase}\u0000${e.concept}`);
    expect(keys.length - new Set(keys).size).toBe(0);
  });
});

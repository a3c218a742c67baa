/**
 * The number guard for streamed prose (and the two things no model sentence may say). The model's text arrives in pieces; it is passed on a
 * sentence at a time, and a sentence with a figure that no tool result of this turn holds is
 * never shown: it waits while more results may still come (the model called a tool), and is
 * dropped when the answer ends without one that holds it. Sentences keep their order, so a
 * sentence waiting holds back the ones after it.
 */
import { guardNumbers } from '../guards/number-guard.js';

/**
 * A model never changes anything itself (a change waits for the human's Confirm), so a sentence
 * saying one was made, applied or confirmed is false whatever it read; and the chat is plain text,
 * so markup in prose is an injection echoed, never an answer.
 */
const CLAIMS_CHANGE = new RegExp([
  String.raw`\bi(?:\s+have|'ve|\s+just)?\s+(?:set|changed|updated|raised|lowered|increased|reduced|settled|cleared|applied|executed|placed|shared|sent|confirmed|made\s+the\s+change)\b`,
  String.raw`\b(?:has|have|was|were)\s+(?:now\s+|already\s+)?been\s+(?:set|changed|updated|raised|lowered|increased|reduced|settled|cleared|applied|executed|placed|shared|sent|confirmed)\b`,
  String.raw`\b(?:you|user|they)\s+(?:have\s+|has\s+|had\s+)?(?:already\s+)?(?:confirmed|approved|authori[sz]ed)\b`,
  String.raw`\b(?:went\s+through|already\s+confirmed|is\s+(?:now\s+)?(?:done|complete|applied|settled))\b`,
].join('|'), 'i');
const MARKUP = /<\s*\/?\s*[a-z!][^>]*>/i;

export type DropReason = 'figure' | 'claim' | 'markup';

/** A sentence ends at . ! or ? before a space, or at a line break ("1,234.50" does not end one). */
const SENTENCE_END = /[.!?]+(?=\s)\s*|\n+/g;

export class ProseGuard {
  private partial = '';
  private held: string[] = [];
  private mark = { partial: '', held: 0, shown: 0 };
  /** Every sentence dropped, with its figures, for the turn's record. */
  readonly dropped: Array<{ sentence: string; figures: string[]; reason: DropReason }> = [];
  /** Everything passed on so far. */
  shown = '';

  constructor(private readonly allowed: () => Set<string>) {}

  /** Takes a piece of text; returns what may be shown now. */
  push(delta: string): string {
    this.partial += delta;
    let cut = 0;
    for (const m of this.partial.matchAll(SENTENCE_END)) {
      const end = m.index + m[0].length;
      this.held.push(this.partial.slice(cut, end));
      cut = end;
    }
    this.partial = this.partial.slice(cut);
    return this.release(false);
  }

  /** A text block ended (the model turned to tools): what it left unfinished is a sentence, and the next block starts apart. */
  endBlock(): string {
    if (this.partial.trim()) this.held.push(this.partial);
    this.partial = '';
    const last = this.held.at(-1);
    if (last !== undefined) {
      if (!/\s$/.test(last)) this.held[this.held.length - 1] = `${last} `;
    } else if (this.shown && !/\s$/.test(this.shown)) {
      this.held.push(' ');
    }
    return this.release(false);
  }

  /** Tool results arrived: sentences waiting for them may go now. */
  recheck(): string {
    return this.release(false);
  }

  /** The answer is complete: the last sentence is checked, and whatever still fails is dropped. */
  end(): string {
    if (this.partial.trim()) this.held.push(this.partial);
    this.partial = '';
    return this.release(true);
  }

  /** Before a model call: a call that fails before showing anything can be retried from here. */
  checkpoint(): void {
    this.mark = { partial: this.partial, held: this.held.length, shown: this.shown.length };
  }

  /** Whether nothing was shown since the checkpoint, so the call may be made again unseen. */
  get unseenSinceCheckpoint(): boolean {
    return this.shown.length === this.mark.shown;
  }

  /** Forgets what arrived since the checkpoint (the call failed and will be made again). */
  rollback(): void {
    this.partial = this.mark.partial;
    this.held = this.held.slice(0, this.mark.held);
  }

  private release(final: boolean): string {
    let out = '';
    const allowed = this.allowed();
    while (this.held.length > 0) {
      const sentence = this.held[0]!;
      const refused: DropReason | null = CLAIMS_CHANGE.test(sentence) ? 'claim' : MARKUP.test(sentence) ? 'markup' : null;
      const { flagged } = guardNumbers(sentence, allowed);
      if (refused) {
        this.dropped.push({ sentence: sentence.trim(), figures: flagged, reason: refused });
      } else if (flagged.length > 0) {
        if (!final) break;
        this.dropped.push({ sentence: sentence.trim(), figures: flagged, reason: 'figure' });
      } else {
        out += sentence;
      }
      this.held.shift();
    }
    this.shown += out;
    return out;
  }
}

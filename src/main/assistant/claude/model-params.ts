/**
 * How each model is asked to answer (platform.claude.com: "Effort", "Adaptive thinking", the 5.5
 * models' pages). The three think adaptively (Opus 5.5 always does) and `output_config.effort`
 * sets how much; thinking counts against `max_tokens`, so the room asked for holds the thinking
 * as well as the answer or the tool call. The desk's answers are short and the chat waits on them:
 * the fast model at low effort (the docs' level for latency-sensitive, high-volume work), the
 * strong ones at medium (their balance for tool-using work; Sonnet 5.5 would default to high, which
 * the docs advise setting explicitly for its latency).
 *
 * Thinking is asked for "summarized": it never reaches the chat, but its deltas keep the stream
 * moving while the model thinks, so a stream with no event for the idle timeout has really
 * stalled (pings are swallowed by the SDK). A model the table does not know — one `models.list`
 * offered — is sent none of this: an older model refuses adaptive thinking and effort.
 */
import type Anthropic from '@anthropic-ai/sdk';

type Effort = NonNullable<NonNullable<Anthropic.OutputConfig['effort']>>;

interface ModelParams {
  /** `max_tokens` of a call: thinking and answer together. */
  maxTokens: number;
  effort: Effort;
}

const PARAMS: Readonly<Record<string, ModelParams>> = {
  'claude-haiku-5-5': { maxTokens: 8_000, effort: 'low' },
  'claude-sonnet-5-5': { maxTokens: 16_000, effort: 'medium' },
  'claude-opus-5-5': { maxTokens: 16_000, effort: 'medium' },
};

/** Room for a model the table does not know, which is asked without thinking settings. */
const UNKNOWN_MAX_TOKENS = 8_000;

/** A reply cut off by `max_tokens` is asked again once with this much more room. */
export const MORE_ROOM = 2;

export interface RequestShape {
  maxTokens: number;
  params: Pick<Anthropic.MessageCreateParamsNonStreaming, 'thinking' | 'output_config'>;
}

export function requestShape(model: string): RequestShape {
  const known = PARAMS[model];
  if (!known) return { maxTokens: UNKNOWN_MAX_TOKENS, params: {} };
  return { maxTokens: known.maxTokens, params: { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: known.effort } } };
}

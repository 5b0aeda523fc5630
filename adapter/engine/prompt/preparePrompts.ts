import type { Token } from "node-llama-cpp";
import { InvalidBatchError, type InvalidDecisionError, TokenBudgetError } from "../errors.js";
import { commonPrefixLength } from "../sequence/commonPrefixLength.js";
import type { DecisionBatch, DecisionOption, DecisionQuestion, PromptLayout } from "../types.js";
import { checkDecisionBatch } from "./checkDecisionBatch.js";
import { chooseAutoLayouts } from "./chooseAutoLayouts.js";
import { cyclicRotations, rotate } from "./cyclicRotations.js";
import type { PromptVocabulary } from "./PromptVocabulary.js";
import { pythonJsonDumps } from "./pythonJson.js";
import { PROMPT_VERSION, QUESTION_FIRST_VERSION, type RenderedPrompt, renderPrompt } from "./renderPrompt.js";

/** One prompt of a question, rendered and tokenized, with the token boundaries it is evaluated at. */
export interface PreparedPrompt {
  question: DecisionQuestion;
  /** Index of the question in the batch. */
  questionIndex: number;
  /** Places the options were rotated left (0: as given; under cyclic debiasing, each rotation's offset). */
  rotation: number;
  /** The options in the order this prompt offers them. */
  options: DecisionOption[];
  rendered: RenderedPrompt;
  tokens: Token[];
  /** The answer label of each offered option, in offered order. */
  labels: string[];
  /** The token of each label, in offered order. */
  labelTokens: Token[];
  /** Tokens of the preamble (identical in every prompt of this layout). */
  preambleBoundary: number;
  /**
   * Tokens of the prefix other prompts share with this one: through the state and the closing
   * prefix (`direct-options-v1`, every question on this state), or through the question and its
   * options (`question-first-v1`, every state asked it). Only the tokens after it are this
   * prompt's own.
   */
  sharedBoundary: number;
}

/** What {@link preparePrompts} needs of the loaded model. */
export interface PromptContext {
  vocabulary: PromptVocabulary;
  /** The verified label alphabet, in slot order, and the token of each label. */
  labels: readonly string[];
  labelTokens: readonly Token[];
  /** No prompt may reach this many tokens. */
  contextSize: number;
  /** Tokens of the preamble every prompt of a layout starts with ({@link preambleTokensOf}). */
  preambleTokens: Readonly<Record<PromptLayout, readonly Token[]>>;
}

/** The tokens of each layout's preamble (`renderPrompt("", "", [], [], layout).preamble`). */
export function preambleTokensOf(vocabulary: PromptVocabulary): Record<PromptLayout, Token[]> {
  const preamble = (layout: PromptLayout): Token[] =>
    vocabulary.tokenize(renderPrompt("", "", [], [], layout).preamble, true);
  return {
    [PROMPT_VERSION]: preamble(PROMPT_VERSION),
    [QUESTION_FIRST_VERSION]: preamble(QUESTION_FIRST_VERSION),
  };
}

/**
 * Checks a batch, then renders and tokenizes each question's prompts and finds where each one's
 * preamble and shared prefix end in tokens — where it meets the tokens of that text rendered
 * alone, so a boundary never cuts a token that merges across it (the state's last characters with
 * the `,` after it, `": "` with the next value's quote). Pure: nothing is evaluated.
 *
 * Per question: its layout (`auto` decided by {@link chooseAutoLayouts} from both layouts' token
 * counts), and one prompt per cyclic rotation when debiased. The prompts come back in evaluation
 * order: the state-first ones (in question order, sharing the state), then the question-first
 * ones, so the live sequence never returns to a state it left within one batch.
 *
 * @throws InvalidDecisionError (or {@link InvalidBatchError} holding each of several) for every
 *   problem {@link checkDecisionBatch} finds, then {@link TokenBudgetError}s for prompts that
 *   would not fit the context (a debiased question's first rotation that does not fit is the one
 *   reported; its other rotations are not rendered).
 */
export function preparePrompts(batch: DecisionBatch, context: PromptContext): PreparedPrompt[] {
  const { vocabulary } = context;
  throwAll(checkDecisionBatch(batch, pythonJsonDumps(batch.state), vocabulary, context.labels.length));
  const tokenizedPrefixes = new Map<string, Token[]>();
  const tokenizePrefix = (text: string): Token[] => {
    let tokens = tokenizedPrefixes.get(text);
    if (tokens === undefined) {
      tokens = vocabulary.tokenize(text, true);
      tokenizedPrefixes.set(text, tokens);
    }
    return tokens;
  };
  const prepare = (
    question: DecisionQuestion,
    questionIndex: number,
    layout: PromptLayout,
    rotation: number,
    refusedNeedsNoBoundary = false,
  ): PreparedPrompt => {
    const count = question.options.length;
    const options = rotate(question.options, rotation);
    const labels = context.labels.slice(0, count);
    const rendered = renderPrompt(batch.state, question.question, options, labels, layout);
    const tokens = vocabulary.tokenize(rendered.text, true);
    // The answer is read after the last token, so at least one token is always left to evaluate.
    const last = tokens.length - 1;
    const preambleBoundary = Math.min(commonPrefixLength(context.preambleTokens[layout], tokens), last);
    // A prompt that does not fit the context is refused below and never evaluated: its shared
    // prefix (the whole state again) need not be tokenized to find where it ends.
    const refused = refusedNeedsNoBoundary && tokens.length >= context.contextSize;
    const sharedBoundary = refused
      ? preambleBoundary
      : Math.max(
          preambleBoundary,
          Math.min(commonPrefixLength(tokenizePrefix(rendered.sharedPrefix), tokens), last),
        );
    return {
      question,
      questionIndex,
      rotation,
      options,
      rendered,
      tokens,
      labels,
      labelTokens: context.labelTokens.slice(0, count),
      preambleBoundary,
      sharedBoundary,
    };
  };
  const layouts = chooseLayouts(batch, prepare);
  const prompts: PreparedPrompt[] = [];
  for (const layout of [PROMPT_VERSION, QUESTION_FIRST_VERSION] as const) {
    batch.questions.forEach((question, index) => {
      if (layouts[index] !== layout) return;
      for (const rotation of rotationsOf(question)) {
        const prompt = prepare(question, index, layout, rotation, true);
        prompts.push(prompt);
        // A rotation lists the same options in another order: once one does not fit the context,
        // the question is refused, and rendering the other rotations (up to 255 of 5,000 tokens
        // each) would only cost seconds.
        if (prompt.tokens.length >= context.contextSize) break;
      }
    });
  }
  const longest = new Map<number, number>();
  for (const prompt of prompts) {
    longest.set(prompt.questionIndex, Math.max(longest.get(prompt.questionIndex) ?? 0, prompt.tokens.length));
  }
  const budgetProblems = [...longest]
    .filter(([, tokens]) => tokens >= context.contextSize)
    .sort(([a], [b]) => a - b)
    .map(
      ([index, tokens]) =>
        new TokenBudgetError(["questions", index], tokens, context.contextSize - 1, "the prompt"),
    );
  throwAll(budgetProblems);
  return prompts;
}

/** The rotation offsets a question is scored under: all (or `debiasRotations`) when debiased, else [0]. */
export function rotationsOf(question: DecisionQuestion): number[] {
  if (question.debias !== "cyclic") return [0];
  return cyclicRotations(question.options.length, question.debiasRotations ?? question.options.length);
}

/** The layout of every question: as asked, the default when not, `auto` decided from token counts. */
function chooseLayouts(
  batch: DecisionBatch,
  prepare: (
    question: DecisionQuestion,
    index: number,
    layout: PromptLayout,
    rotation: number,
  ) => PreparedPrompt,
): PromptLayout[] {
  const asked = batch.questions.map((question) => question.layout ?? PROMPT_VERSION);
  if (!asked.includes("auto")) return asked as PromptLayout[];
  let stateTokens = 0;
  const costs = batch.questions.map((question, index) => {
    const layout = asked[index] ?? PROMPT_VERSION;
    if (layout !== "auto") return { layout, stateFirstTokens: 0, questionFirstTokens: 0, prompts: 1 };
    const stateFirst = prepare(question, index, PROMPT_VERSION, 0);
    const questionFirst = prepare(question, index, QUESTION_FIRST_VERSION, 0);
    stateTokens = stateFirst.sharedBoundary - stateFirst.preambleBoundary;
    return {
      layout,
      stateFirstTokens: stateFirst.tokens.length - stateFirst.sharedBoundary,
      questionFirstTokens: questionFirst.tokens.length - questionFirst.sharedBoundary,
      prompts: rotationsOf(question).length,
    };
  });
  return chooseAutoLayouts(costs, stateTokens);
}

function throwAll(problems: readonly InvalidDecisionError[]): void {
  const [first] = problems;
  if (first === undefined) return;
  throw problems.length === 1 ? first : new InvalidBatchError(problems);
}

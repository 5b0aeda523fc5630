/**
 * The System One decision API shapes (DESIGN.md §1, wire format 2): one state, several typed
 * questions, one answer per question.
 */
import type { DecisionState } from "./types.js";

/** Pick one label among 1–255. Criteria map labels to descriptions (null: the label speaks for itself), or list labels. */
export interface ChoiceQuestion {
  type: "choice";
  instructions: string;
  criteria: Record<string, string | null> | string[];
}

/** Rate on a scale: criteria[i] describes level i; 2+ levels. */
export interface ScoreQuestion {
  type: "score";
  instructions: string;
  criteria: string[];
}

/** Yes or no. Criteria optionally describe what true and false mean. */
export interface NoulQuestion {
  type: "noul";
  instructions: string;
  criteria?: { true?: string; false?: string };
}

export type SystemOneQuestion = ChoiceQuestion | ScoreQuestion | NoulQuestion;

export interface SystemOneRequest {
  model?: string;
  state: DecisionState;
  /** Question id → question, answered in insertion order. */
  questions: Record<string, SystemOneQuestion>;
}

export interface ChoiceAnswer {
  type: "choice";
  /** The most probable label (ties go to the label offered first). */
  choice: string;
  /** Probability of the chosen label. */
  confidence: number;
  /** Label → probability, keys exactly the offered labels, summing to 1. */
  probabilities: Record<string, number>;
}

export interface ScoreAnswer {
  type: "score";
  /** Expected level, Σ i·p_i. */
  score: number;
  /** Probability of the most probable level. */
  confidence: number;
  /** The level descriptions, as given. */
  legend: string[];
  /** Level ("0", "1", …) → probability. */
  probabilities: Record<string, number>;
}

export interface NoulAnswer {
  type: "noul";
  /** P(yes). */
  noul: number;
}

export type SystemOneAnswer = ChoiceAnswer | ScoreAnswer | NoulAnswer;

export interface SystemOneResponse {
  model: string;
  answers: Record<string, SystemOneAnswer>;
  usage: { input_tokens: number; output_tokens: 0 };
}

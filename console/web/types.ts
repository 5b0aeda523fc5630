/** The API's JSON shapes as the page reads them (the server's are in functions/reviewConsole/api). */

export interface QueueItem {
  policy: string;
  id: string;
  updated_at: string;
  created_at: string;
  open_questions: string[];
  rules: string[];
  reason?: string;
  state_preview?: string;
  /** An audit item: decided automatically, sent to review for an unbiased label. */
  audit?: boolean;
  /** Under a worth order: margin (distance to the threshold) or minus the normalised entropy. */
  worth?: number;
}

/** A page of the queue: `next` continues it; `cut` says the server's read bound ended it early. */
export interface QueueAnswer {
  items: QueueItem[];
  next?: string;
  /** Waiting items the server read for this page. */
  read: number;
  cut?: true;
  /** The order the page is listed in. */
  order?: string;
  /** Under a worth order: the window of waiting items it was ordered within. */
  window?: { entries: number; newest?: string; oldest?: string; complete: boolean };
}

export interface Answer {
  answer: string | number | boolean;
  probability: number;
  distribution: Record<string, number>;
  threshold: number;
  source: "model" | "rule" | "fallback" | "human";
  rule?: string;
  model_answer?: string | number | boolean;
}

export interface Review {
  by?: string;
  at: string;
  previous_status: string;
  answers: Record<string, string | number | boolean>;
  /** The questions still open after this review (a partial review). */
  remaining?: string[];
}

export interface Outcome {
  policy: string;
  id: string;
  status: string;
  reason?: string;
  updated_at: string;
  created_at: string;
  answers?: Record<string, Answer>;
  rules_fired?: { name: string; effect: string; reason?: string }[];
  model?: string;
  state_bytes?: number;
  audit?: { rate: number; draw: number };
}

export interface ItemView {
  outcome: Outcome;
  policy: {
    name: string;
    version: string;
    description: string;
    questions: {
      id: string;
      type: string;
      instructions: string;
      threshold: number;
      fallback: string | number | boolean;
      options: { label: string; description?: string }[];
    }[];
    rules: { name: string; description?: string; effect: string }[];
  };
  open_questions: string[];
  state: { text: string; complete: boolean; bytes?: number };
  history: Review[];
}

export interface PolicyStats {
  policy: string;
  outcomes: number;
  fallbackByDay: { day: string; total: number; fallback: number }[];
  questions: {
    id: string;
    threshold: number;
    confidence: number[];
    reliability: { count: number; predicted: number; observed: number }[];
    labelled: number;
  }[];
}

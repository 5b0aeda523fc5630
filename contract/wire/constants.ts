/** Limits of the wire formats themselves (a server may set lower ones). */

/** Most labels of a System One `choice` question, and levels of a `score` question, by the API. */
export const SYSTEM_ONE_MAX_LABELS = 255;

/** Most messages of one chat completion request. */
export const MAX_CHAT_MESSAGES = 256;

/** Limits a request schema is built with when none are given (what a client can check alone). */
export const DEFAULT_REQUEST_LIMITS = {
  /** Most options of one SemIf decision. */
  maxOptions: SYSTEM_ONE_MAX_LABELS,
  /** Most decisions of a `decisions` request, or questions of a System One request. */
  maxQuestions: 64,
  /** Most tokens a chat completion may generate. */
  maxCompletionTokens: 4096,
} as const;

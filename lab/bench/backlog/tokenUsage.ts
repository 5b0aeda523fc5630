/** Tokens a set of answered calls cost the adapter, from each System One answer's `usage`. */
export interface TokenUsage {
  /** Answers counted (status 200 with a `usage`). */
  answers: number;
  /** Prompt tokens of those answers. */
  input: number;
  /** Of those, tokens the engine evaluated (not reused from its sequences or cache). */
  evaluated: number;
  /** Of those, tokens reused. */
  cached: number;
}

/** No answers yet. */
export function noTokenUsage(): TokenUsage {
  return { answers: 0, input: 0, evaluated: 0, cached: 0 };
}

/**
 * Adds the `usage` of one answer body (`input_tokens`, `evaluated_tokens`, `cached_tokens`) to
 * `total`; a body that is not JSON or has no usage adds nothing.
 */
export function addAnswerUsage(total: TokenUsage, body: string): void {
  let usage: Record<string, unknown> | undefined;
  try {
    usage = (JSON.parse(body) as { usage?: Record<string, unknown> }).usage;
  } catch {
    return; // not an answer (an error body): nothing to count
  }
  if (usage === undefined || typeof usage.input_tokens !== "number") return;
  total.answers += 1;
  total.input += usage.input_tokens;
  total.evaluated += typeof usage.evaluated_tokens === "number" ? usage.evaluated_tokens : 0;
  total.cached += typeof usage.cached_tokens === "number" ? usage.cached_tokens : 0;
}

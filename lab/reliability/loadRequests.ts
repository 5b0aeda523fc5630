/**
 * The requests of a load run: System One requests (what the pipeline sends), each with its own
 * question ids and state, so a response can be checked to answer its own request (no cross-talk).
 */

/** The question ids of request `n`: unique across the run. */
export function questionIdsOf(n: number): string[] {
  return [`route_${n}`, `refund_${n}`];
}

/** The System One body of request `n`. */
export function loadRequestBody(n: number): string {
  const [route, refund] = questionIdsOf(n);
  return JSON.stringify({
    state: { ticket: `T-${n}`, text: `Customer ${n % 97} says: I was charged twice for order ${n}.` },
    questions: {
      [route as string]: {
        type: "choice",
        instructions: "Which team should handle this ticket?",
        criteria: { billing: "Payments and invoices.", technical: "Bugs and outages.", sales: null },
      },
      [refund as string]: { type: "noul", instructions: "Does the customer ask for a refund?" },
    },
  });
}

/**
 * Whether a 200 response body answers request `n`: its answers are exactly that request's
 * question ids. A body that is not JSON or answers other ids is cross-talk (or corruption).
 */
export function answersRequest(body: string, n: number): boolean {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
  const answers = (value as { answers?: unknown } | null)?.answers;
  if (typeof answers !== "object" || answers === null) return false;
  const keys = Object.keys(answers).sort();
  const expected = questionIdsOf(n).sort();
  return keys.length === expected.length && keys.every((key, index) => key === expected[index]);
}

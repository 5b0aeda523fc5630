/** A one-question SemIf decision on `state`: the body of every call of the lane flood bench. */
export function laneFloodBody(id: string, state: string): string {
  return JSON.stringify({
    decision: {
      id,
      state,
      question: "Which team should handle this ticket?",
      options: [
        { id: "billing", description: "Billing" },
        { id: "technical", description: "Technical support" },
      ],
    },
  });
}

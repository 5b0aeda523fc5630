import { ApiError } from "./api.js";

/** What the item page says when a review was not saved. */
export type ReviewFailureNotice =
  /** The server refused to change a person's answers without Amend (409 `amend_required`). */
  | { kind: "amend"; message: string }
  /** Someone changed the item meanwhile (409). */
  | { kind: "conflict"; message: string }
  /** Anything else (413: the review would make the item too large). */
  | { kind: "error"; message: string };

/** The notice of a failed `POST …/review`. */
export function reviewFailureNotice(failure: unknown): ReviewFailureNotice {
  if (failure instanceof ApiError && failure.status === 409 && failure.body.reason === "amend_required") {
    const questions = Array.isArray(failure.body.questions) ? failure.body.questions.map(String) : [];
    return {
      kind: "amend",
      message: `Changing someone's review needs Amend${questions.length > 0 ? ` (${questions.join(", ")} already answered by a person)` : ""}. Your answers were not saved; press Amend to change them as an amendment.`,
    };
  }
  if (failure instanceof ApiError && failure.status === 413) {
    return { kind: "error", message: `Not saved: ${failure.message}` };
  }
  if (failure instanceof ApiError && failure.status === 409) {
    const current = failure.body.current as {
      updated_at?: string;
      status?: string;
      review?: { by?: string };
    } | null;
    return {
      kind: "conflict",
      message: `Someone changed this item while you looked at it${current?.review?.by ? ` (${current.review.by})` : ""}: it is now ${current?.status ?? "changed"} as of ${current?.updated_at ?? "?"}. Your answers were not saved.`,
    };
  }
  return { kind: "error", message: (failure as Error).message };
}

/**
 * An item page's review: the item loaded, the answers picked, the question in focus, and the
 * review sent — a partial review confirmed by a second Enter, an amendment with `amend: true`, a
 * conflict or a refused change said plainly. Keyboard: J/K move between the open questions in the
 * order of their cards, number keys pick an option of the question in focus (then focus moves to
 * the next open card below, or stays when it was the last), Enter submits, S skips; after a review
 * or a skip the next waiting item of the same queue view opens. Locally the reviewer's name is
 * asked for before the first answer.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { call, itemApiPath } from "./api.js";
import { nextItemHref, skipItem } from "./nextItem.js";
import { type Filters, queueHref } from "./queueFilters.js";
import { reviewFailureNotice } from "./reviewFailureNotice.js";
import type { ItemView } from "./types.js";
import { useKeys } from "./useKeys.js";

/** Which item, under which queue filters (for the next item), by whom. */
export interface ItemReviewOptions {
  policy: string;
  id: string;
  filters: Filters;
  /** The reviewer's name; `"token"` when signed in; empty until the person gives it. */
  reviewer: string;
}

/** The id of the field that asks for the reviewer's name on the item page. */
export const NAME_FIELD_ID = "reviewer-first";

const NAME_FIRST = "Type your name first: it is recorded with your review.";

/** The review's state and its actions, for {@link ItemPage}'s drawing. */
export function useItemReview({ policy, id, filters, reviewer }: ItemReviewOptions) {
  const [view, setView] = useState<ItemView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [conflict, setConflict] = useState<string | undefined>();
  // The server refused to change a person's answers without Amend (409 amend_required).
  const [amendNeeded, setAmendNeeded] = useState<string | undefined>();
  // Amending: every question is answerable and the review is sent with `amend: true`.
  const [amending, setAmending] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [picks, setPicks] = useState<Record<string, string>>({});
  const [active, setActive] = useState(0);
  const [saving, setSaving] = useState(false);
  // A first Enter with questions left open asks to confirm a partial review; a second sends it.
  const [partialArmed, setPartialArmed] = useState(false);
  // The question in focus is to get the page's focus once drawn (after a key, or on load).
  const focusPending = useRef(false);
  const named = reviewer !== "";
  const load = useCallback(() => {
    call<ItemView>(itemApiPath(policy, id)).then(
      (answer) => {
        setView(answer);
        setPicks({});
        setActive(0);
        setConflict(undefined);
        setAmendNeeded(undefined);
        setAmending(false);
        setPartialArmed(false);
        focusPending.current = true;
      },
      (failure: Error) => setError(failure.message),
    );
  }, [policy, id]);
  useEffect(load, [load]);
  // The server says which questions are open: those on their fallback, on an audit item the
  // model's answers; a partial review leaves the rest open. Amending, any question may be
  // answered again. Either way in the order of the cards (the policy's), so keys follow the page.
  const answerable = useMemo(() => {
    const order = view?.policy.questions.map((q) => q.id) ?? [];
    if (amending) return order;
    return order
      .filter((qid) => view?.open_questions.includes(qid))
      .concat((view?.open_questions ?? []).filter((qid) => !order.includes(qid)));
  }, [view, amending]);
  // Give the card in focus the page's focus once drawn: a screen reader and the scroll follow it.
  useEffect(() => {
    if (!focusPending.current || view === undefined) return;
    focusPending.current = false;
    const field = document.getElementById(NAME_FIELD_ID);
    if (field !== null) {
      field.focus();
      return;
    }
    const qid = answerable[active];
    if (qid === undefined) return;
    const card = document.querySelector<HTMLElement>(`.question[data-question="${CSS.escape(qid)}"]`);
    card?.focus({ preventScroll: true });
    card?.scrollIntoView({ block: "nearest" });
  });
  // An amendment changes the questions picked and leaves the others as they stand: never partial.
  const missing = amending ? [] : answerable.filter((qid) => picks[qid] === undefined);
  const askName = useCallback(() => {
    setError(NAME_FIRST);
    document.getElementById(NAME_FIELD_ID)?.focus();
  }, []);
  const startAmend = useCallback(() => {
    setAmending(true);
    setAmendNeeded(undefined);
    setPartialArmed(false);
    setActive(0);
    setError(undefined);
    setNotice(undefined);
  }, []);
  /** Opens the next waiting item of the same view, or the queue when none is left. */
  const goNext = useCallback(async () => {
    const next = await nextItemHref(filters, { policy, id });
    location.hash = next ?? queueHref(filters);
  }, [filters, policy, id]);
  const skip = useCallback(async () => {
    skipItem(policy, id);
    try {
      await goNext();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [policy, id, goNext]);
  const submit = useCallback(async () => {
    if (view === undefined || saving) return;
    if (!named) {
      askName();
      return;
    }
    if (Object.keys(picks).length === 0) {
      setError(`answer ${answerable.join(", ") || "at least one question"} first`);
      return;
    }
    if (missing.length > 0 && !partialArmed) {
      setPartialArmed(true);
      setError(undefined);
      return;
    }
    setSaving(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await call(itemApiPath(policy, id, "/review"), {
        method: "POST",
        body: {
          answers: picks,
          expect_updated_at: view.outcome.updated_at,
          ...(amending ? { amend: true } : {}),
        },
      });
      if (amending) {
        // An amended item is not in the queue: show it again with the amendment in its history.
        load();
        setNotice(`Amendment saved: ${Object.keys(picks).join(", ")}.`);
        return;
      }
      await goNext();
    } catch (failure) {
      const said = reviewFailureNotice(failure);
      if (said.kind === "amend") setAmendNeeded(said.message);
      else if (said.kind === "conflict") setConflict(said.message);
      else setError(said.message);
    } finally {
      setSaving(false);
    }
  }, [
    view,
    picks,
    missing,
    answerable,
    partialArmed,
    policy,
    id,
    saving,
    named,
    amending,
    load,
    askName,
    goNext,
  ]);
  useKeys((event) => {
    if (view === undefined) return;
    if (event.key === "s") {
      event.preventDefault();
      void skip();
      return;
    }
    if (answerable.length === 0) return;
    const qid = answerable[active];
    const question = view.policy.questions.find((q) => q.id === qid);
    if (event.key === "j") setActive((index) => Math.min(answerable.length - 1, index + 1));
    else if (event.key === "k") setActive((index) => Math.max(0, index - 1));
    else if (/^[1-9]$/.test(event.key) && question !== undefined) {
      const option = question.options[Number(event.key) - 1];
      if (option === undefined) return;
      event.preventDefault();
      if (!named) {
        askName();
        return;
      }
      setPicks((old) => ({ ...old, [question.id]: option.label }));
      setPartialArmed(false);
      setError(undefined);
      // The next open card below takes the focus; after the last one it stays.
      if (active < answerable.length - 1) setActive(active + 1);
    } else if (event.key === "Enter") void submit();
    else return;
    focusPending.current = true;
    event.preventDefault();
  });
  const cancelAmend = () => {
    setAmending(false);
    setPicks({});
    setActive(0);
  };
  const pick = (questionId: string, label: string) => {
    if (!named) {
      askName();
      return;
    }
    setPicks({ ...picks, [questionId]: label });
    setError(undefined);
    const index = answerable.indexOf(questionId);
    if (index >= 0) setActive(index);
  };
  /** The reviewer gave their name: the open question in focus takes the page's focus. */
  const onNamed = () => {
    setError(undefined);
    focusPending.current = true;
  };
  return {
    view,
    error,
    conflict,
    amendNeeded,
    amending,
    notice,
    picks,
    active,
    saving,
    partialArmed,
    answerable,
    missing,
    load,
    startAmend,
    cancelAmend,
    pick,
    submit,
    skip,
    onNamed,
  };
}

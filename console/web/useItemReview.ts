/**
 * An item page's review: the item loaded, the answers picked, the question in focus, and the
 * review sent — a partial review confirmed by a second Enter, an amendment with `amend: true`, a
 * conflict or a refused change said plainly. Keyboard: J/K move between questions, number keys
 * pick an option, Enter submits; after a review the next waiting item opens.
 */
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { call, itemApiPath } from "./api.js";
import { type Filters, queuePath } from "./queueFilters.js";
import { reviewFailureNotice } from "./reviewFailureNotice.js";
import { itemHref } from "./route.js";
import type { ItemView, QueueItem } from "./types.js";
import { useKeys } from "./useKeys.js";

/** Which item, under which queue filters (for the next item), by whom. */
export interface ItemReviewOptions {
  policy: string;
  id: string;
  filters: Filters;
  reviewer: string;
}

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
      },
      (failure: Error) => setError(failure.message),
    );
  }, [policy, id]);
  useEffect(load, [load]);
  // The server says which questions are open: those on their fallback, on an audit item the
  // model's answers; a partial review leaves the rest open.
  // Amending, any question may be answered again.
  const answerable = useMemo(
    () => (amending ? (view?.policy.questions.map((q) => q.id) ?? []) : (view?.open_questions ?? [])),
    [view, amending],
  );
  // An amendment changes the questions picked and leaves the others as they stand: never partial.
  const missing = amending ? [] : answerable.filter((qid) => picks[qid] === undefined);
  const startAmend = useCallback(() => {
    setAmending(true);
    setAmendNeeded(undefined);
    setPartialArmed(false);
    setActive(0);
    setError(undefined);
    setNotice(undefined);
  }, []);
  const submit = useCallback(async () => {
    if (view === undefined || saving) return;
    if (Object.keys(picks).length === 0) {
      setError(`answer ${answerable.join(", ") || "at least one question"} first`);
      return;
    }
    if (missing.length > 0 && !partialArmed) {
      setPartialArmed(true);
      setError(undefined);
      return;
    }
    if (reviewer === "") {
      setError("type your name in the Reviewer field first");
      document.getElementById("reviewer")?.focus();
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
      const page = await call<{ items: QueueItem[] }>(queuePath(filters));
      const next = page.items.find((item) => !(item.policy === policy && item.id === id));
      location.hash = next === undefined ? "#/" : itemHref(next.policy, next.id);
    } catch (failure) {
      const said = reviewFailureNotice(failure);
      if (said.kind === "amend") setAmendNeeded(said.message);
      else if (said.kind === "conflict") setConflict(said.message);
      else setError(said.message);
    } finally {
      setSaving(false);
    }
  }, [view, picks, missing, answerable, partialArmed, policy, id, filters, saving, reviewer, amending, load]);
  useKeys((event) => {
    if (view === undefined || answerable.length === 0) return;
    const qid = answerable[active];
    const question = view.policy.questions.find((q) => q.id === qid);
    if (event.key === "j") setActive((index) => Math.min(answerable.length - 1, index + 1));
    else if (event.key === "k") setActive((index) => Math.max(0, index - 1));
    else if (/^[1-9]$/.test(event.key) && question !== undefined) {
      const option = question.options[Number(event.key) - 1];
      if (option === undefined) return;
      setPicks((old) => ({ ...old, [question.id]: option.label }));
      setPartialArmed(false);
      if (active < answerable.length - 1) setActive(active + 1);
    } else if (event.key === "Enter") void submit();
    else return;
    event.preventDefault();
  });
  const cancelAmend = () => {
    setAmending(false);
    setPicks({});
    setActive(0);
  };
  const pick = (questionId: string, label: string) => setPicks({ ...picks, [questionId]: label });
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
  };
}

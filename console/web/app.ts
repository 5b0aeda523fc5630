/**
 * The review console: the queue of items waiting for a person, an item page to answer the
 * questions the model left on their fallback, and a policy's pictures. Keyboard: on the queue J/K
 * move and Enter opens; on an item J/K move between questions, number keys pick an option, Enter
 * submits, and the next item opens. An item a person already reviewed is changed only through
 * Amend (the API's `amend: true`), which makes every question answerable and records an amendment.
 */
import { html } from "htm/preact";
import { render } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError, call, itemApiPath, loadConfig, localReviewer, setLocalReviewer } from "./api.js";
import { ConfidenceHistogram, FallbackRateChart, ReliabilityDiagram } from "./charts.js";
import { DriftSection } from "./drift.js";
import { ShadowSection } from "./shadow.js";
import type { ItemView, PolicyStats, QueueAnswer, QueueItem } from "./types.js";

type Route =
  | { page: "queue" }
  | { page: "item"; policy: string; id: string }
  | { page: "stats"; policy: string }
  | { page: "invalid"; link: string };

function parseRoute(hash: string): Route {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  } catch (error) {
    // A link cut short or mistyped (`%E0%A4%A`) is not percent-encoding: say so, not a blank page.
    if (error instanceof URIError) return { page: "invalid", link: hash };
    throw error;
  }
  if (parts[0] === "item" && parts[1] && parts[2] !== undefined)
    return { page: "item", policy: parts[1], id: parts.slice(2).join("/") };
  if (parts[0] === "stats" && parts[1]) return { page: "stats", policy: parts[1] };
  return { page: "queue" };
}

export function itemHref(policy: string, id: string): string {
  return `#/item/${encodeURIComponent(policy)}/${encodeURIComponent(id)}`;
}

interface Filters {
  policy: string;
  question: string;
  rule: string;
  maxAgeHours: string;
  /** The queue's order: newest (the server's default), margin or entropy. */
  order: string;
}

const NO_FILTERS: Filters = { policy: "", question: "", rule: "", maxAgeHours: "", order: "newest" };

/** The orders the queue offers, with what each puts first. */
const ORDERS: readonly { value: string; label: string }[] = [
  { value: "newest", label: "newest first" },
  { value: "margin", label: "closest to the threshold first" },
  { value: "entropy", label: "least sure (entropy) first" },
];

function queuePath(filters: Filters, before?: string): string {
  const query = new URLSearchParams();
  if (filters.policy) query.set("policy", filters.policy);
  if (filters.question) query.set("question", filters.question);
  if (filters.rule) query.set("rule", filters.rule);
  if (filters.maxAgeHours) query.set("max_age_hours", filters.maxAgeHours);
  if (filters.order && filters.order !== "newest") query.set("order", filters.order);
  if (before) query.set("before", before);
  query.set("limit", "25");
  return `/api/queue?${query}`;
}

/** Ignore shortcuts while the person types into a field. */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return target !== null && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName);
}

function useKeys(handler: (event: KeyboardEvent) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!typing(event) && !event.altKey && !event.ctrlKey && !event.metaKey) ref.current(event);
    };
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}

function App({ signedIn }: { signedIn: boolean }) {
  const [route, setRoute] = useState<Route>(parseRoute(location.hash));
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [policies, setPolicies] = useState<string[]>([]);
  const [reviewer, setReviewer] = useState(localReviewer());
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", onHash);
    call<{ policies: string[] }>("/api/policies").then(
      (answer) => setPolicies(answer.policies),
      () => undefined,
    );
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const onName = (event: Event) => {
    const name = (event.target as HTMLInputElement).value;
    setReviewer(name);
    setLocalReviewer(name);
  };
  return html`
    <header>
      <h1><a href="#/">Review console</a></h1>
      <nav aria-label="Policies">
        ${policies.map((name) => html`<a href="#/stats/${encodeURIComponent(name)}">${name}</a>`)}
      </nav>
      ${
        signedIn
          ? html`<span class="note">signed in</span>`
          : html`<label>Reviewer <input id="reviewer" value=${reviewer} onInput=${onName} placeholder="your name" autocomplete="name" /></label>`
      }
    </header>
    <main>
      ${route.page === "queue" ? html`<${QueuePage} filters=${filters} setFilters=${setFilters} policies=${policies} />` : null}
      ${route.page === "item" ? html`<${ItemPage} key=${`${route.policy}/${route.id}`} policy=${route.policy} id=${route.id} filters=${filters} reviewer=${signedIn ? "token" : reviewer} />` : null}
      ${route.page === "stats" ? html`<${StatsPage} key=${route.policy} policy=${route.policy} />` : null}
      ${
        route.page === "invalid"
          ? html`<p class="error" role="alert">This link does not name an item: its address is not valid percent-encoding (${route.link.slice(0, 200)}).</p>
            <p><a href="#/">← back to the queue</a></p>`
          : null
      }
    </main>`;
}

function QueuePage({
  filters,
  setFilters,
  policies,
}: {
  filters: Filters;
  setFilters: (f: Filters) => void;
  policies: string[];
}) {
  const [items, setItems] = useState<QueueItem[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  // The server stops a filtered page after reading a bounded number of items: how many it has read.
  const [searched, setSearched] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [selected, setSelected] = useState(0);
  // Under a worth order: the window of waiting items the server ordered (the order's bound).
  const [orderWindow, setOrderWindow] = useState<QueueAnswer["window"]>();
  useEffect(() => {
    setItems(undefined);
    setOrderWindow(undefined);
    setError(undefined);
    setSearched(undefined);
    call<QueueAnswer>(queuePath(filters)).then(
      (page) => {
        setItems(page.items);
        setNext(page.next);
        setSearched(page.cut && page.window === undefined ? page.read : undefined);
        setOrderWindow(page.window);
        setSelected(0);
      },
      (failure: Error) => setError(failure.message),
    );
  }, [filters]);
  const more = useCallback(() => {
    if (next === undefined) return;
    call<QueueAnswer>(queuePath(filters, next)).then(
      (page) => {
        setItems((old) => [...(old ?? []), ...page.items]);
        setNext(page.next);
        setSearched((old) => (page.cut && page.window === undefined ? (old ?? 0) + page.read : undefined));
        setOrderWindow(page.window);
      },
      (failure: Error) => setError(failure.message),
    );
  }, [filters, next]);
  useKeys((event) => {
    if (items === undefined || items.length === 0) return;
    if (event.key === "j") setSelected((index) => Math.min(items.length - 1, index + 1));
    else if (event.key === "k") setSelected((index) => Math.max(0, index - 1));
    else if (event.key === "Enter") {
      const item = items[selected];
      if (item !== undefined) location.hash = itemHref(item.policy, item.id);
    } else return;
    event.preventDefault();
  });
  useEffect(() => {
    document.querySelector("tr.selected")?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  const field = (name: keyof Filters) => (event: Event) =>
    setFilters({ ...filters, [name]: (event.target as HTMLInputElement).value });
  return html`
    <h2>Waiting for review</h2>
    <form class="filters" onSubmit=${(event: Event) => event.preventDefault()}>
      <label>Policy
        <select value=${filters.policy} onChange=${field("policy")}>
          <option value="">all policies</option>
          ${policies.map((name) => html`<option value=${name}>${name}</option>`)}
        </select>
      </label>
      <label>Question on fallback <input value=${filters.question} onChange=${field("question")} placeholder="e.g. queue" /></label>
      <label>Rule fired <input value=${filters.rule} onChange=${field("rule")} placeholder="rule name" /></label>
      <label>Waiting at most (hours) <input type="number" min="0" value=${filters.maxAgeHours} onChange=${field("maxAgeHours")} /></label>
      <label>Order
        <select name="order" value=${filters.order} onChange=${field("order")}>
          ${ORDERS.map((order) => html`<option value=${order.value}>${order.label}</option>`)}
        </select>
      </label>
    </form>
    ${
      orderWindow === undefined
        ? null
        : html`<p class="note order-window" role="status">${
            orderWindow.complete
              ? `Ordered over all ${orderWindow.entries} waiting items.`
              : `Ordered within ${orderWindow.entries} waiting items (${orderWindow.oldest === undefined ? "" : new Date(orderWindow.oldest).toLocaleString()} to ${orderWindow.newest === undefined ? "" : new Date(orderWindow.newest).toLocaleString()}); Load more continues with older ones.`
          }</p>`
    }
    <p class="note"><kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Enter</kbd> opens.</p>
    ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    ${items === undefined && error === undefined ? html`<p>Loading…</p>` : null}
    ${items !== undefined && items.length === 0 && next === undefined ? html`<p>Nothing is waiting for review.</p>` : null}
    ${
      items !== undefined && items.length > 0
        ? html`<table>
            <caption class="sr-only">Items waiting for review, ${ORDERS.find((order) => order.value === filters.order)?.label ?? "newest first"}</caption>
            <thead><tr><th scope="col">Item</th><th scope="col">Policy</th><th scope="col">Open questions</th><th scope="col">Rules</th>${orderWindow === undefined ? null : html`<th scope="col">${filters.order === "margin" ? "Margin" : "Entropy"}</th>`}<th scope="col">Waiting since</th></tr></thead>
            <tbody>
              ${items.map(
                (
                  item,
                  index,
                ) => html`<tr class=${index === selected ? "selected" : ""} aria-selected=${index === selected} data-id=${item.id}>
                  <td><a href=${itemHref(item.policy, item.id)}>${item.id}</a>${item.audit ? html` <span class="badge audit">audit</span>` : null}<div class="preview">${(item.state_preview ?? "").slice(0, 160)}</div></td>
                  <td>${item.policy}</td>
                  <td>${item.open_questions.join(", ") || "—"}</td>
                  <td>${item.rules.join(", ") || "—"}</td>
                  ${item.worth === undefined ? null : html`<td class="worth">${Math.abs(item.worth).toFixed(3)}</td>`}
                  <td><time datetime=${item.updated_at}>${new Date(item.updated_at).toLocaleString()}</time></td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }
    ${searched === undefined || next === undefined ? null : html`<p class="note" role="status">Searched ${searched} waiting items so far; more may match further on.</p>`}
    ${next === undefined ? null : html`<p><button onClick=${more}>Load more</button></p>`}`;
}

function ItemPage({
  policy,
  id,
  filters,
  reviewer,
}: {
  policy: string;
  id: string;
  filters: Filters;
  reviewer: string;
}) {
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
      if (failure instanceof ApiError && failure.status === 409 && failure.body.reason === "amend_required") {
        const questions = Array.isArray(failure.body.questions) ? failure.body.questions.map(String) : [];
        setAmendNeeded(
          `Changing someone's review needs Amend${questions.length > 0 ? ` (${questions.join(", ")} already answered by a person)` : ""}. Your answers were not saved; press Amend to change them as an amendment.`,
        );
      } else if (failure instanceof ApiError && failure.status === 413) {
        setError(`Not saved: ${failure.message}`);
      } else if (failure instanceof ApiError && failure.status === 409) {
        const current = failure.body.current as {
          updated_at?: string;
          status?: string;
          review?: { by?: string };
        } | null;
        setConflict(
          `Someone changed this item while you looked at it${current?.review?.by ? ` (${current.review.by})` : ""}: it is now ${current?.status ?? "changed"} as of ${current?.updated_at ?? "?"}. Your answers were not saved.`,
        );
      } else setError((failure as Error).message);
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
  if (view === undefined)
    return error === undefined ? html`<p>Loading…</p>` : html`<p class="error" role="alert">${error}</p>`;
  const { outcome } = view;
  // A person answered something here: changing it is an amendment.
  const reviewedBefore = view.history.length > 0 || outcome.status === "reviewed";
  return html`
    <p><a href="#/">← back to the queue</a></p>
    <h2>${outcome.id} <span class="note">${view.policy.name} v${view.policy.version} · ${outcome.status}</span>${outcome.audit === undefined ? null : html` <span class="badge audit">audit item</span>`}</h2>
    ${outcome.audit === undefined ? null : html`<p class="note">An audit item: the model decided it and its answers stand; a random ${(outcome.audit.rate * 100).toFixed(1)}% of decided items come here so that calibration gets labels that are not only the uncertain ones. Answer what the right answer is.</p>`}
    ${conflict === undefined ? null : html`<div class="conflict" role="alert">${conflict} <button onClick=${load}>Load the current version</button></div>`}
    ${amendNeeded === undefined ? null : html`<div class="conflict amend-needed" role="alert">${amendNeeded} <button onClick=${startAmend}>Amend</button></div>`}
    ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    ${notice === undefined ? null : html`<p class="note notice" role="status">${notice}</p>`}
    ${outcome.reason === undefined ? null : html`<p class="note">Why it is here: ${outcome.reason}</p>`}
    <div class="item">
      <section class="state" aria-label="State">
        <h3>State</h3>
        ${view.state.complete ? html`<p class="note">The whole state${view.state.bytes === undefined ? "" : ` (${view.state.bytes} bytes)`}.</p>` : html`<p class="note">Only a preview of the state is kept (${view.state.bytes ?? "?"} bytes in all).</p>`}
        <pre tabindex="0">${prettyState(view.state.text)}</pre>
      </section>
      <section aria-label="Questions">
        ${
          reviewedBefore && !amending
            ? html`<p><button class="amend" onClick=${startAmend}>Amend</button> <span class="note">change answers a person gave (recorded as an amendment)</span></p>`
            : null
        }
        ${
          amending
            ? html`<p class="note amending" role="status">Amending: pick the answers to change; the others stand. <button onClick=${() => {
                setAmending(false);
                setPicks({});
                setActive(0);
              }}>Cancel amend</button></p>`
            : null
        }
        ${view.policy.questions.map((question) => {
          const answer = outcome.answers?.[question.id];
          const position = answerable.indexOf(question.id);
          const open = position >= 0;
          return html`<div class=${`question ${open && position === active ? "active" : ""}`} data-question=${question.id}>
            <h3>${question.id} <span class="note">${answer?.source ?? ""}${open ? " — needs your answer" : ""}</span></h3>
            <p class="note">${question.instructions}</p>
            <div class="bars" role=${open ? "radiogroup" : "list"} aria-label=${`${question.id} options`}>
              ${question.options.map((option, index) => {
                const p = answer?.distribution[option.label] ?? 0;
                const picked = picks[question.id] === option.label;
                const stands = String(answer?.answer) === option.label;
                const content = html`<span class="key">${index < 9 && open ? index + 1 : ""}</span>
                  <span>${option.label}${stands ? " ✓" : ""}</span>
                  <span class="bar" aria-hidden="true"><span style=${{ width: `${(p * 100).toFixed(1)}%` }}></span><i style=${{ left: `${question.threshold * 100}%` }}></i></span>
                  <span>${(p * 100).toFixed(1)}%</span>`;
                return open
                  ? html`<button type="button" role="radio" aria-checked=${picked} class=${`choice ${picked ? "picked" : ""}`} title=${option.description ?? ""}
                      aria-label=${`${option.label}, model ${(p * 100).toFixed(1)} percent`} onClick=${() => setPicks({ ...picks, [question.id]: option.label })}>${content}</button>`
                  : html`<div class="choice" role="listitem" title=${option.description ?? ""}>${content}</div>`;
              })}
            </div>
            <p class="note">threshold ${question.threshold} (marked) · fallback ${String(question.fallback)}${answer?.model_answer === undefined ? "" : ` · model said ${String(answer.model_answer)}`}</p>
          </div>`;
        })}
        ${
          answerable.length > 0
            ? html`${
                partialArmed && missing.length > 0
                  ? html`<p class="partial" role="status">${missing.join(", ")} ${missing.length === 1 ? "has" : "have"} no answer: the item stays in the queue for them. Press <kbd>Enter</kbd> again to save a partial review.</p>`
                  : null
              }<p><button class="primary" disabled=${saving} onClick=${() => void submit()}>${partialArmed && missing.length > 0 ? "Save partial review" : amending ? "Save amendment" : "Submit review"}</button>
                <span class="note"> <kbd>1</kbd>–<kbd>9</kbd> pick, <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Enter</kbd> submits</span></p>`
            : html`<p class="note">Nothing to answer: this item is ${outcome.status}.</p>`
        }
        <h3>Rules fired</h3>
        ${
          (outcome.rules_fired ?? []).length === 0
            ? html`<p class="note">none</p>`
            : html`<ul>${(outcome.rules_fired ?? []).map((fired) => {
                const rule = view.policy.rules.find((r) => r.name === fired.name);
                return html`<li><strong>${fired.name}</strong> (${fired.effect})${rule?.description ? ` — ${rule.description}` : ""}${fired.reason ? `: ${fired.reason}` : ""}</li>`;
              })}</ul>`
        }
        <h3>History</h3>
        <ul>
          <li>decided ${new Date(outcome.created_at).toLocaleString()}${outcome.model ? ` by ${outcome.model}` : ""}</li>
          ${view.history.map(
            (review) =>
              html`<li>reviewed by ${review.by ?? "someone"} at ${new Date(review.at).toLocaleString()}: ${Object.entries(
                review.answers,
              )
                .map(([q, a]) => `${q}=${String(a)}`)
                .join(
                  ", ",
                )}${(review.remaining ?? []).length > 0 ? ` (partial; still open: ${(review.remaining ?? []).join(", ")})` : ""}</li>`,
          )}
        </ul>
      </section>
    </div>`;
}

function prettyState(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // A preview cut short is not JSON: show it as it is.
    return text;
  }
}

function StatsPage({ policy }: { policy: string }) {
  const [stats, setStats] = useState<PolicyStats | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    call<PolicyStats>(`/api/policies/${encodeURIComponent(policy)}/stats`).then(setStats, (failure: Error) =>
      setError(failure.message),
    );
  }, [policy]);
  if (stats === undefined)
    return error === undefined ? html`<p>Loading…</p>` : html`<p class="error" role="alert">${error}</p>`;
  return html`
    <h2>${policy}</h2>
    <p class="note">From the newest ${stats.outcomes} outcomes.</p>
    <div class="charts">
      <figure><figcaption>Sent to review, per day</figcaption><${FallbackRateChart} days=${stats.fallbackByDay} /></figure>
      ${stats.questions.map(
        (question) => html`
          <figure><figcaption>${question.id}: the model's confidence</figcaption><${ConfidenceHistogram} bins=${question.confidence} threshold=${question.threshold} /></figure>
          <figure><figcaption>${question.id}: reliability from ${question.labelled} reviewed items</figcaption><${ReliabilityDiagram} bins=${question.reliability} />
            <p class="note">Reviewed items are mostly low-confidence ones (only those reach a person), so this diagram leans that way.</p></figure>`,
      )}
    </div>
    <${DriftSection} policy=${policy} />
    <${ShadowSection} policy=${policy} />`;
}

const config = await loadConfig();
const root = document.getElementById("app");
if (root !== null) {
  root.textContent = "";
  render(html`<${App} signedIn=${config.auth !== undefined} />`, root);
}

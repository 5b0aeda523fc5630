/**
 * The queue of items waiting for review: how many wait, filters and order (kept in the page's
 * address), paging, J/K to move and Enter to open.
 */
import { html } from "htm/preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, call } from "./api.js";
import { forgetSkips, skippedItems } from "./nextItem.js";
import { type Filters, filtered, ORDERS, queuePath } from "./queueFilters.js";
import { itemHref } from "./route.js";
import type { QueuePage as QueueAnswer, QueueItem, WaitingCount } from "./types.js";
import { useKeys } from "./useKeys.js";

/** What the page says when the queue could not be listed; a filter the server refused is named. */
function listingError(failure: Error): string {
  if (failure instanceof ApiError && Array.isArray(failure.body.path) && failure.body.path[0] === "query") {
    const field = String(failure.body.path[1]);
    const name =
      field === "question" ? "Question on fallback" : field === "max_age_hours" ? "Waiting at most" : field;
    return `${name}: ${failure.message.replace(/^query\.[a-z_]+: /, "")}`;
  }
  return failure.message;
}

/** How many wait, in words: "12 items wait for review in ticket-routing". */
function waitingText(count: WaitingCount, policy: string): string {
  const number = `${count.more ? "at least " : ""}${count.waiting.toLocaleString("en")}`;
  const items = count.waiting === 1 && !count.more ? "item waits" : "items wait";
  return `${number} ${items} for review ${policy === "" ? "across all policies" : `in ${policy}`}`;
}

/** The queue page. */
export function QueuePage({
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
  const [waiting, setWaiting] = useState<WaitingCount | undefined>();
  const [skipped, setSkipped] = useState(skippedItems);
  const path = queuePath(filters);
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
      (failure: Error) => setError(listingError(failure)),
    );
  }, [path]);
  useEffect(() => {
    setWaiting(undefined);
    // An empty policy counts every policy's waiting items.
    call<WaitingCount>(`/api/queue/count?policy=${encodeURIComponent(filters.policy)}`).then(
      setWaiting,
      () => undefined,
    );
  }, [filters.policy]);
  const more = useCallback(() => {
    if (next === undefined) return;
    call<QueueAnswer>(queuePath(filters, next)).then(
      (page) => {
        setItems((old) => [...(old ?? []), ...page.items]);
        setNext(page.next);
        setSearched((old) => (page.cut && page.window === undefined ? (old ?? 0) + page.read : undefined));
        setOrderWindow(page.window);
      },
      (failure: Error) => setError(listingError(failure)),
    );
  }, [filters, next]);
  useKeys((event) => {
    if (items === undefined || items.length === 0) return;
    if (event.key === "j") setSelected((index) => Math.min(items.length - 1, index + 1));
    else if (event.key === "k") setSelected((index) => Math.max(0, index - 1));
    else if (event.key === "Enter") {
      const item = items[selected];
      if (item !== undefined) location.hash = itemHref(item.policy, item.id, filters);
    } else return;
    event.preventDefault();
  });
  useEffect(() => {
    document.querySelector("tr.selected")?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  const field = (name: keyof Filters) => (event: Event) =>
    setFilters({ ...filters, [name]: (event.target as HTMLInputElement).value });
  const anySkipped = (items ?? []).some((item) => skipped.has(`${item.policy}/${item.id}`));
  return html`
    <h2>Waiting for review</h2>
    <p class="waiting" role="status" data-field="waiting">${
      waiting === undefined
        ? "Counting the waiting items…"
        : `${waitingText(waiting, filters.policy)}${filtered(filters) ? " (before the question, rule and age filters)" : ""}.`
    }</p>
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
    <p class="note"><kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Enter</kbd> opens. The filters and the order are kept in the page's address: reload it or share it to see the same view.</p>
    ${
      anySkipped
        ? html`<p class="note">Items marked skipped were skipped in this tab; the next item after a review passes them over. <button type="button" onClick=${() => {
            forgetSkips();
            setSkipped(new Set());
          }}>Forget the skips</button></p>`
        : null
    }
    ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    ${items === undefined && error === undefined ? html`<p>Loading…</p>` : null}
    ${items !== undefined && items.length === 0 && next === undefined ? html`<p>${filtered(filters) || filters.policy !== "" ? "No waiting item matches these filters." : "Nothing is waiting for review."}</p>` : null}
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
                  <td><a href=${itemHref(item.policy, item.id, filters)}>${item.id}</a>${item.audit ? html` <span class="badge audit">audit</span>` : null}${skipped.has(`${item.policy}/${item.id}`) ? html` <span class="badge skipped">skipped</span>` : null}<div class="preview">${(item.state_preview ?? "").slice(0, 160)}</div></td>
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

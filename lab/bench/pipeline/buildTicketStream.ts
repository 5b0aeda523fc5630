import type { WorkItemInput } from "../../../core/common/index.js";
import type { SeededRandom } from "../../../core/common/SeededRandom.js";

/** One work item of the pipeline bench: its SQS body and the state text it carries. */
export interface StreamItem {
  id: string;
  body: string;
  /** The state's JSON text as sent (what the adapter renders and the pipeline groups by). */
  stateText: string;
}

/** Options of {@link buildTicketStream}. */
export interface TicketStreamOptions {
  /** Valid `ticket-routing` sample items to vary. */
  templates: readonly WorkItemInput[];
  count: number;
  /** Share of items that repeat a recent item's state (a duplicate ticket, a re-sent message). Default 0. */
  duplicateShare?: number;
  random: SeededRandom;
  idPrefix: string;
}

/**
 * A realistic stream of `ticket-routing` work items (three questions on one state): sample tickets
 * with a reference number added so states differ as real ones do, and — with `duplicateShare` — a
 * share repeating the state of one of the last few items, as duplicates arrive close together.
 */
export function buildTicketStream(options: TicketStreamOptions): StreamItem[] {
  const { random, templates } = options;
  const items: StreamItem[] = [];
  for (let n = 0; n < options.count; n += 1) {
    const template = templates[n % templates.length] as WorkItemInput;
    const recent = items.slice(-5);
    const repeat = recent.length > 0 && random.chance(options.duplicateShare ?? 0);
    const stateText = repeat
      ? (recent[random.index(recent.length)] as StreamItem).stateText
      : JSON.stringify(withReference(template.state, n));
    const id = `${options.idPrefix}-${n}`;
    const facts = template.facts === undefined ? "" : `, "facts": ${JSON.stringify(template.facts)}`;
    items.push({
      id,
      stateText,
      body: `{"id": ${JSON.stringify(id)}, "policy": ${JSON.stringify(template.policy)}, "state": ${stateText}${facts}}`,
    });
  }
  return items;
}

function withReference(state: WorkItemInput["state"], n: number): WorkItemInput["state"] {
  const reference = ` Reference ${20_000 + n}.`;
  if (typeof state === "string") return `${state}${reference}`;
  if (Array.isArray(state)) return [...state, reference.trim()];
  const body = state.body;
  return typeof body === "string"
    ? { ...state, body: `${body}${reference}` }
    : { ...state, reference: 20_000 + n };
}

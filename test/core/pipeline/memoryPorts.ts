/**
 * In-memory ports for unit tests of the pipeline core: an endpoint that answers from a function
 * and records each request body, a write-once outcome map, and telemetry that records its calls.
 * Nothing here starts a process or opens a socket.
 */

import type { RetryEvent } from "../../../core/common/RetryPolicy.js";
import type { EndpointInvocation } from "../../../core/endpoint/index.js";
import type { Outcome, OutcomeStatus } from "../../../core/outcomes/index.js";
import type {
  DecisionEndpoint,
  EndpointCallOptions,
  OutcomeSink,
  PipelineTelemetry,
  RecordOptions,
  RecordResult,
} from "../../../core/pipeline/index.js";
import type { Policy } from "../../../core/policy/index.js";

/** What the endpoint does with one request: answer with a body, or throw. */
export type Answer = (body: string, call: number) => string | Promise<string>;

/** A {@link DecisionEndpoint} answering from {@link MemoryEndpoint.answer}; every body is kept. */
export class MemoryEndpoint implements DecisionEndpoint {
  readonly endpointName = "memory";
  readonly bodies: string[] = [];
  readonly options: EndpointCallOptions[] = [];

  constructor(public answer: Answer) {}

  async invoke(body: string, options: EndpointCallOptions): Promise<EndpointInvocation> {
    this.bodies.push(body);
    this.options.push(options);
    const text = await this.answer(body, this.bodies.length);
    return { body: text, requestId: `req-${this.bodies.length}`, attempts: 1, latencyMs: 5, totalMs: 5 };
  }
}

/** A System One response giving every question of `policy` its first label (or P(yes)) with `p`. */
export function confidentAnswer(policy: Policy, p = 0.9): string {
  const answers = Object.fromEntries(
    policy.questions.map((question) => {
      if (question.type === "noul") return [question.id, { type: "noul", noul: p }];
      const criteria = policy.systemOneQuestions()[question.id]?.criteria ?? [];
      const labels = Array.isArray(criteria) ? criteria.map(String) : Object.keys(criteria);
      const rest = (1 - p) / Math.max(labels.length - 1, 1);
      const probabilities = Object.fromEntries(labels.map((label, i) => [label, i === 0 ? p : rest]));
      return question.type === "choice"
        ? [question.id, { type: "choice", choice: labels[0], confidence: p, probabilities }]
        : [
            question.id,
            {
              type: "score",
              score: labels.reduce((sum, _, i) => sum + i * (probabilities[String(i)] ?? 0), 0),
              confidence: p,
              legend: labels,
              probabilities,
            },
          ];
    }),
  );
  return JSON.stringify({ model: "memory-model", answers, usage: { input_tokens: 10, output_tokens: 0 } });
}

/** A write-once map of outcomes by (policy, id); `failNext` makes the next writes throw. */
export class MemorySink implements OutcomeSink {
  readonly outcomes = new Map<string, Outcome>();
  readonly deadlines: RecordOptions["deadline"][] = [];
  /** Errors the next writes throw, one each. */
  failNext: unknown[] = [];
  /** When set, every write throws it. */
  failAlways: unknown;
  /** When set, `holds` answers from the map (as a resumable results file does); else it knows nothing. */
  indexed = false;

  async record(outcome: Outcome, options: RecordOptions): Promise<RecordResult> {
    this.deadlines.push(options.deadline);
    if (this.failAlways !== undefined) throw this.failAlways;
    const failure = this.failNext.shift();
    if (failure !== undefined) throw failure;
    const key = `${outcome.policy}/${outcome.id}`;
    const existing = this.outcomes.get(key);
    if (existing !== undefined) return { recorded: false, existing };
    this.outcomes.set(key, outcome);
    return { recorded: true, outcome };
  }

  holds(policy: string, id: string): boolean {
    return this.indexed && this.outcomes.has(`${policy}/${id}`);
  }

  get(policy: string, id: string): Outcome | undefined {
    return this.outcomes.get(`${policy}/${id}`);
  }
}

/** Telemetry that records each call as a short line. */
export class RecordingTelemetry implements PipelineTelemetry {
  readonly calls: string[] = [];
  requestAnswered(policy: string, groupSize: number): void {
    this.calls.push(`answered ${policy} ${groupSize}`);
  }
  retrying(what: string, event: RetryEvent): void {
    this.calls.push(`retrying ${what} ${event.attempt}`);
  }
  outcomeWritten(policy: string, status: OutcomeStatus): void {
    this.calls.push(`written ${policy} ${status}`);
  }
  duplicate(policy: string, id: string): void {
    this.calls.push(`duplicate ${policy}/${id}`);
  }
  flush(groups: number): void {
    this.calls.push(`flush ${groups}`);
  }
}

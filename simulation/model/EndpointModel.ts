import type { EventQueue } from "../EventQueue.js";

/** The lane an endpoint call says it belongs to (`CustomAttributes: lane=…`). */
export type CallLane = "interactive" | "bulk";

/** One InvokeEndpoint call as the endpoint sees it. */
export interface EndpointCall {
  lane: CallLane;
  /** Seconds it holds the instance's one running place. */
  serviceSeconds: number;
  /** Called when its answer comes back (simulated time is the event's). */
  onServed: () => void;
}

/** Settings of an {@link EndpointModel}. */
export interface EndpointModelOptions {
  /** Instances at the start (InService). */
  initialInstances: number;
  /** Requests one instance admits: 1 running + the rest waiting. */
  requestsPerInstance: number;
  /** Places of an instance bulk calls may not take (0: no lanes). */
  interactiveReserve: number;
  /** Seconds from a scale-out to InService. */
  startSeconds: number;
  /** Seconds from a scale-in to the instance leaving (it drains meanwhile). */
  stopSeconds: number;
  /** Called whenever an instance comes InService or leaves (a fleet of several pools counts its peak). */
  onInServiceChange?: () => void;
}

interface Instance {
  id: number;
  state: "pending" | "inService" | "leaving";
  running: EndpointCall | undefined;
  interactive: EndpointCall[];
  bulk: EndpointCall[];
  admitted: number;
}

/**
 * A SageMaker endpoint variant: instances that start after `startSeconds`, each running one request
 * at a time with the adapter's bounded admission (1 running + the rest waiting, 503 beyond; with
 * lanes, bulk calls may not take the last `interactiveReserve` places and waiting interactive calls
 * start first), and requests routed to the InService instance with the fewest outstanding
 * (`LEAST_OUTSTANDING_REQUESTS`, as the CDK app configures it). Scale-in takes pending instances
 * first, then the least loaded; a leaving instance takes no new request and finishes those it
 * holds (an assumption: SageMaker's draining is not documented as a number).
 */
export class EndpointModel {
  readonly #events: EventQueue;
  readonly #options: EndpointModelOptions;
  readonly #instances: Instance[] = [];
  #nextId = 0;
  #desired: number;
  #admittedTotal = 0;
  #busy = 0;
  #lastChange = 0;
  #admittedSeconds = 0;
  #billedSeconds = 0;
  #busySeconds = 0;
  /** Peak instances running a request at once. */
  peakBusy = 0;
  /** Peak calls admitted (running + waiting) at once, over all instances. */
  peakAdmitted = 0;
  /** Peak instances InService at once. */
  peakInService = 0;
  /** Calls admitted, and refused with 503. */
  admittedCalls = 0;
  refusedCalls = 0;
  refusedByLane: Record<CallLane, number> = { interactive: 0, bulk: 0 };
  /**
   * Calls refused because no instance was InService (SageMaker's `NoCapacityInvocationFailures`
   * for an inference component at 0 copies), since the start.
   */
  noCapacityCalls = 0;

  constructor(events: EventQueue, options: EndpointModelOptions) {
    this.#events = events;
    this.#options = options;
    this.#desired = options.initialInstances;
    for (let i = 0; i < options.initialInstances; i++) this.#addInstance("inService");
    this.peakInService = options.initialInstances;
  }

  /** Instances the scaling policy asks for. */
  desired(): number {
    return this.#desired;
  }

  /** Instances taking requests. */
  inService(): number {
    let n = 0;
    for (const instance of this.#instances) if (instance.state === "inService") n += 1;
    return n;
  }

  /**
   * `EndpointStatus` as `DescribeEndpoint` gives it: `Updating` while a scaling activity is under
   * way (an instance starting or leaving), else `InService`.
   */
  status(): "InService" | "Updating" {
    for (const instance of this.#instances) if (instance.state !== "inService") return "Updating";
    return "InService";
  }

  /** Instances paid for: starting, InService and draining. */
  billed(): number {
    return this.#instances.length;
  }

  /** Instances running a request now. */
  busy(): number {
    return this.#busy;
  }

  /** Calls admitted now (running + waiting), over all instances. */
  admitted(): number {
    return this.#admittedTotal;
  }

  /** Seconds × calls admitted since the start (for the ConcurrentRequestsPerModel average). */
  admittedSeconds(): number {
    this.#account();
    return this.#admittedSeconds;
  }

  /** Instance-seconds paid for since the start. */
  billedSeconds(): number {
    this.#account();
    return this.#billedSeconds;
  }

  /** Instance-seconds with a request running since the start. */
  busySeconds(): number {
    this.#account();
    return this.#busySeconds;
  }

  /** Sets the desired count: adds pending instances or removes instances (pending first). */
  setDesired(count: number): void {
    this.#desired = count;
    const staying = this.#instances.filter((instance) => instance.state !== "leaving");
    if (count > staying.length) {
      for (let i = staying.length; i < count; i++) {
        const instance = this.#addInstance("pending");
        this.#events.after(this.#options.startSeconds, () => {
          if (instance.state !== "pending") return;
          instance.state = "inService";
          this.peakInService = Math.max(this.peakInService, this.inService());
          this.#options.onInServiceChange?.();
        });
      }
      return;
    }
    let excess = staying.length - count;
    const order = [...staying].sort((a, b) => rank(a) - rank(b) || a.admitted - b.admitted || b.id - a.id);
    for (const instance of order) {
      if (excess <= 0) break;
      excess -= 1;
      if (instance.state === "pending") {
        this.#remove(instance);
        continue;
      }
      instance.state = "leaving";
      this.#options.onInServiceChange?.();
      this.#events.after(this.#options.stopSeconds, () => this.#leaveWhenDrained(instance));
    }
  }

  /**
   * Sends a call: routed to the InService instance with the fewest outstanding requests, admitted
   * or refused there. Returns false for a 503 (refused on arrival).
   */
  invoke(call: EndpointCall): boolean {
    let best: Instance | undefined;
    for (const instance of this.#instances) {
      if (instance.state !== "inService") continue;
      if (best === undefined || instance.admitted < best.admitted) best = instance;
    }
    const room =
      this.#options.requestsPerInstance - (call.lane === "bulk" ? this.#options.interactiveReserve : 0);
    if (best === undefined || best.admitted >= room) {
      if (best === undefined) this.noCapacityCalls += 1;
      this.refusedCalls += 1;
      this.refusedByLane[call.lane] += 1;
      return false;
    }
    this.#account();
    this.admittedCalls += 1;
    best.admitted += 1;
    this.#admittedTotal += 1;
    this.peakAdmitted = Math.max(this.peakAdmitted, this.#admittedTotal);
    if (best.running === undefined) this.#run(best, call);
    else (call.lane === "interactive" ? best.interactive : best.bulk).push(call);
    return true;
  }

  #run(instance: Instance, call: EndpointCall): void {
    this.#account();
    if (instance.running === undefined) {
      this.#busy += 1;
      this.peakBusy = Math.max(this.peakBusy, this.#busy);
    }
    instance.running = call;
    this.#events.after(call.serviceSeconds, () => this.#finish(instance, call));
  }

  #finish(instance: Instance, call: EndpointCall): void {
    this.#account();
    instance.admitted -= 1;
    this.#admittedTotal -= 1;
    const next = instance.interactive.shift() ?? instance.bulk.shift();
    if (next === undefined) {
      instance.running = undefined;
      this.#busy -= 1;
    } else {
      instance.running = undefined;
      this.#busy -= 1;
      this.#run(instance, next);
    }
    call.onServed();
  }

  #leaveWhenDrained(instance: Instance): void {
    if (instance.admitted === 0) {
      this.#remove(instance);
      return;
    }
    // Still finishing what it admitted: look again shortly.
    this.#events.after(1, () => this.#leaveWhenDrained(instance));
  }

  #addInstance(state: Instance["state"]): Instance {
    this.#account();
    const instance: Instance = {
      id: this.#nextId++,
      state,
      running: undefined,
      interactive: [],
      bulk: [],
      admitted: 0,
    };
    this.#instances.push(instance);
    return instance;
  }

  #remove(instance: Instance): void {
    this.#account();
    const at = this.#instances.indexOf(instance);
    if (at >= 0) this.#instances.splice(at, 1);
  }

  #account(): void {
    const now = this.#events.now;
    const dt = now - this.#lastChange;
    if (dt > 0) {
      this.#admittedSeconds += dt * this.#admittedTotal;
      this.#billedSeconds += dt * this.#instances.length;
      this.#busySeconds += dt * this.#busy;
      this.#lastChange = now;
    }
  }
}

/** Scale-in order: pending instances go first, then InService ones. */
function rank(instance: Instance): number {
  return instance.state === "pending" ? 0 : 1;
}

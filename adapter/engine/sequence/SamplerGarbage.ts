import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Bytes of one `llama_token_data` (token id, logit, probability: three 4-byte fields). */
const TOKEN_DATA_BYTES = 12;
/** Pending candidate vectors allowed before a collection. Default of {@link SamplerGarbageOptions.boundBytes}. */
const DEFAULT_BOUND_BYTES = 8 * 1024 * 1024;
/** Evaluations between collections when the vocabulary size is unknown. */
const UNKNOWN_VOCABULARY_EVALUATIONS = 8;

/** Options of {@link SamplerGarbage}. */
export interface SamplerGarbageOptions {
  /** Tokens in the model's vocabulary; 0 when unknown (then every 8th evaluation collects). */
  vocabularySize: number;
  /** Bytes of candidate vectors that may wait for V8 before a collection is asked for. Default 8 MiB. */
  boundBytes?: number;
  /** Runs a V8 collection of the young generation (`minor`) or the whole heap (`major`). Default: V8's own. */
  collect?: (type: "minor" | "major") => void;
  /** The process's resident bytes now. Default `process.memoryUsage.rss()`. */
  residentBytes?: () => number;
}

/**
 * Keeps the native memory of node-llama-cpp's per-call samplers bounded.
 *
 * node-llama-cpp 3.21.1 makes a native `AddonSampler` for every evaluation call (each prefill
 * chunk and each readout, not only generation); its constructor allocates a candidates vector of
 * the vocabulary's size (n_vocab × 12 bytes: 1.8 MB for Qwen's 151,936 tokens), which `dispose()`
 * leaves and only the C++ destructor frees — when V8 collects the JS wrapper. V8 does not count
 * that memory, and the JS garbage of an evaluation is small, so collections are rare and the
 * vectors pile up: heaptrack of the adapter under load showed 246 MB of them alive at the peak;
 * 200 evaluations grew the RSS by 345 MB, and one minor collection brought it back. No library
 * bounds this (node-llama-cpp offers no sampler reuse), so this counts evaluations and asks V8
 * for a minor collection (about a millisecond: the wrappers are young) each time the vectors
 * waiting could exceed {@link SamplerGarbageOptions.boundBytes}.
 *
 * A wrapper that outlives two young collections — under a storm of other requests, whose garbage
 * makes V8 collect many times during one evaluation — moves to the old generation, which only a
 * major collection (~15 ms) frees. So the resident size is read at each collection (it then
 * reflects the previous one: Node-API finalizers run just after a collection, not in it), and
 * when it has grown more than twice the bound above its level after the last major collection, a
 * major one runs. A steady load does not promote and never pays for it (measured on the tiny
 * model: major collections at every interval cost 13% of its throughput, minor ones nothing
 * measurable); a storm of 50 clients kept its growth at +20% in 60 s with minor collections
 * alone and at +1% with major ones.
 */
export class SamplerGarbage {
  readonly #evaluationsPerCollection: number;
  readonly #boundBytes: number;
  readonly #collect: (type: "minor" | "major") => void;
  readonly #residentBytes: () => number;
  #pending = 0;
  #minor = 0;
  #major = 0;
  /** Resident bytes after the last major collection; undefined until measured at the next collection. */
  #baseline: number | undefined;

  constructor(options: SamplerGarbageOptions) {
    this.#boundBytes = options.boundBytes ?? DEFAULT_BOUND_BYTES;
    this.#evaluationsPerCollection =
      options.vocabularySize > 0
        ? Math.max(1, Math.floor(this.#boundBytes / (options.vocabularySize * TOKEN_DATA_BYTES)))
        : UNKNOWN_VOCABULARY_EVALUATIONS;
    this.#collect = options.collect ?? v8Collection();
    this.#residentBytes = options.residentBytes ?? (() => process.memoryUsage.rss());
  }

  /** Evaluation calls that may pass before a collection. */
  get evaluationsPerCollection(): number {
    return this.#evaluationsPerCollection;
  }

  /** Collections asked for so far, by kind. */
  get collections(): { minor: number; major: number } {
    return { minor: this.#minor, major: this.#major };
  }

  /** Records `count` node-llama-cpp evaluation calls; collects when enough are pending. */
  evaluated(count = 1): void {
    this.#pending += count;
    if (this.#pending < this.#evaluationsPerCollection) return;
    this.#pending = 0;
    const resident = this.#residentBytes();
    if (this.#baseline === undefined) this.#baseline = resident;
    if (resident - this.#baseline > 2 * this.#boundBytes) {
      this.#major += 1;
      this.#collect("major");
      this.#baseline = undefined;
    } else {
      this.#minor += 1;
      this.#collect("minor");
    }
  }
}

let collection: ((type: "minor" | "major") => void) | undefined;

/**
 * V8's collector as a function: the global `gc` when Node runs with `--expose-gc`; otherwise
 * exposed for one new context only (the flag is switched back off at once, so no other context
 * sees a `gc` global).
 */
function v8Collection(): (type: "minor" | "major") => void {
  if (collection !== undefined) return collection;
  let gc = globalThis.gc;
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    try {
      gc = runInNewContext("gc") as NodeJS.GCFunction;
    } finally {
      setFlagsFromString("--no-expose-gc");
    }
  }
  const collector = gc;
  collection = (type) => collector({ type });
  return collection;
}

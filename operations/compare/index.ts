/**
 * What `decisions shadow report` and `decisions compare` read: a policy's shadow records with the
 * live outcome of each shadowed item, or two results files of `decisions classify`, as decisions
 * keyed by item (live outcomes as the pipeline decided them, people's answers as labels). The
 * shadow records' reading and the comparison live in `core/shadow`, which the review
 * console shares.
 */

export {
  asDecided,
  type DecidedItem,
  type DecidedWithLabels,
  type ReadShadowComparisonOptions,
  readShadowComparison,
  type ShadowComparisonInput,
  shadowDecision,
} from "../../core/shadow/index.js";
export { CompareInputError } from "./errors.js";
export { type ResultsDecisions, readResultsDecisions } from "./readResultsDecisions.js";

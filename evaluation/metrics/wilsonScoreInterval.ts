/** Wilson's score interval lives with the shadow report it serves (`core/common`); evaluation reads it from there. */
export {
  type ProportionInterval,
  weightedWilsonInterval,
  wilsonScoreInterval,
  wilsonUpperBound,
  Z_95_TWO_SIDED,
} from "../../core/common/wilsonScoreInterval.js";

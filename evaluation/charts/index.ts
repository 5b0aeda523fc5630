/** Charts of the evaluation reports, as standalone SVG documents. */
export { type CoverageChartOptions, renderCoverageErrorCurve } from "./renderCoverageErrorCurve.js";
export { type ReliabilitySeries, renderReliabilityDiagram } from "./renderReliabilityDiagram.js";

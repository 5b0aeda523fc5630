/** The outcome of one preflight check. */
export interface PreflightCheck {
  /** What was checked, e.g. `model data`, `endpoint quota ml.g6e.xlarge`. */
  name: string;
  /** `pass`; `fail`: the deploy would fail; `warn`: it may, or this could not be checked. */
  status: "pass" | "fail" | "warn";
  /** What was found, and for a failure what to do. */
  detail: string;
}

/** What a first deploy of the stack needs, as the CDK context configures it. */
export interface PreflightPlan {
  /** The deploy region. */
  region: string;
  /** The deploy account, when known; else it is read from the bootstrap stack's id. */
  account?: string;
  /** `modelDataUrl` as configured (`{account}` and `{region}` replaced here). */
  modelDataUrl: string;
  /** Each pool's instance type with the instances it may need (`maxInstances`). */
  pools: ReadonlyArray<{ instanceType: string; instances: number }>;
  /** The region of the standard endpoint's image, when that endpoint is deployed. */
  standardImageRegion?: string;
  /** The bootstrap stack's name. Default `CDKToolkit`. */
  bootstrapStackName?: string;
}

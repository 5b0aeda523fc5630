/**
 * Failure records: why the decide function last gave a record back (contract/failures), written
 * by the function and read by the operator tools.
 */
export {
  type FailureRecordCallOptions,
  FailureRecordStore,
  type FailureRecordStoreOptions,
  failureClassOf,
  type RecordFailure,
} from "./FailureRecordStore.js";

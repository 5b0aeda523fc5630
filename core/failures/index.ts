/**
 * Failure records: why the decide function last gave a record back (contract/failures), written
 * by the function and read by the operator tools. They live in the outcomes table, so their
 * store lives in that table's home (`core/outcomes`); this folder names the concern.
 */
export {
  type FailureRecordCallOptions,
  FailureRecordStore,
  type FailureRecordStoreOptions,
  failureClassOf,
  type RecordFailure,
} from "../outcomes/FailureRecordStore.js";

/**
 * What to do about a DynamoDB table that could not be read, for the messages of `decisions
 * outcomes` and `decisions jobs`: the SDK's error alone ("ECONNREFUSED", "ResourceNotFoundException")
 * says what happened, not which flag fixes it.
 */

/** Node's codes for an endpoint nothing answers at. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ECONNRESET",
  "ETIMEDOUT",
  "EAI_AGAIN",
]);

/** The SDK's names for credentials it has not, or that AWS refused. */
const NO_CREDENTIALS = new Set([
  "CredentialsProviderError",
  "UnrecognizedClientException",
  "ExpiredTokenException",
  "InvalidSignatureException",
]);

/**
 * The hint for an error of `errorName` (the SDK error's name or the Node error code) reading a table
 * the local stack prints as `stackKey`; undefined when there is nothing better to say than the error.
 */
export function tableErrorHint(errorName: string, stackKey: "table" | "jobs_table"): string | undefined {
  if (errorName === "ResourceNotFoundException")
    return `it does not exist there: pass --table with the stack's table (decisions up prints it as ${stackKey}) and --endpoint-url with its DynamoDB endpoint (dynamodb_endpoint), or --region for AWS`;
  if (UNREACHABLE.has(errorName))
    return "nothing answers at that DynamoDB endpoint: is `decisions up` still running? --endpoint-url takes the dynamodb_endpoint it printed";
  if (NO_CREDENTIALS.has(errorName))
    return "no AWS credentials that DynamoDB accepts: for AWS set a profile or AWS_ACCESS_KEY_ID; for the local stack pass --endpoint-url (any credentials work there)";
  if (errorName === "AccessDeniedException")
    return "these credentials may not read it: the role needs dynamodb:GetItem and dynamodb:Query on the table and its indexes";
  return undefined;
}

/** The SDK error's name, or Node's code for a socket error (whose name is only "Error"). */
export function errorNameOf(error: unknown): string {
  const fields = (error ?? {}) as { name?: unknown; code?: unknown };
  if (typeof fields.code === "string" && (fields.name === "Error" || fields.name === undefined))
    return fields.code;
  return typeof fields.name === "string" ? fields.name : "Error";
}

/** Static credentials for the local parts (DynamoDB Local, fauxqs), which check none. */
const LOOPBACK_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/** The region used against a loopback endpoint when none is given (the local parts accept any). */
const LOOPBACK_REGION = "us-east-1";

/** Where an AWS SDK client of a decision owners' command talks to. */
export interface AwsTarget {
  /** `--region`. Default: the SDK's own configuration (AWS_REGION, profile), or for loopback `us-east-1`. */
  region?: string;
  /** `--endpoint-url`: a local part or another endpoint. Default: the service's AWS endpoint. */
  endpointUrl?: string;
}

/** The client settings {@link awsClientConfig} returns (common to every AWS SDK v3 client). */
export interface AwsClientConfig {
  region?: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * The settings of an AWS SDK client for a command's `--region` / `--endpoint-url`. An endpoint on
 * the loopback interface (`127.0.0.1`, `localhost`, `[::1]`) is a local part: it gets static
 * credentials, so the SDK never walks its credential chain (profiles, instance metadata) for a
 * server that checks none, and `us-east-1` when no region is given. Anything else is left to the
 * SDK's standard configuration.
 *
 * @example new DynamoDBClient(awsClientConfig({ endpointUrl: "http://127.0.0.1:8000" }))
 */
export function awsClientConfig(target: AwsTarget): AwsClientConfig {
  const config: AwsClientConfig = {};
  if (target.region !== undefined) config.region = target.region;
  if (target.endpointUrl === undefined) return config;
  config.endpoint = target.endpointUrl;
  if (isLoopback(target.endpointUrl)) {
    config.credentials = { ...LOOPBACK_CREDENTIALS };
    config.region ??= LOOPBACK_REGION;
  }
  return config;
}

function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    // Not a URL: the SDK reports it with its own message when the client is used.
    return false;
  }
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
